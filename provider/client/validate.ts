// Response validation. Every body the service returns is parsed with the caller's zod schema, so a
// changed or broken response fails here, with the method, endpoint and field path named, instead of as
// an `undefined is not an object` deep inside a provider. Record schemas are plain `z.object`, which
// tolerates (and drops) unknown fields: the service may add fields without breaking us; and a blank or
// absent nullable field reads as unset.
import { z } from "zod";
import { unsetAsNull } from "../api/unset";
import { TxmailApiError } from "./errors";

/** At most this many issues are spelled out; a broken list page can produce hundreds of the same one. */
const MAX_ISSUES_SHOWN = 5;

export function parseResponse<S extends z.ZodType>(
  schema: S,
  body: unknown,
  ctx: { method: string; path: string; status: number; attempts: number },
): z.output<S> {
  // "", null and absent are alike in a nullable field (provider/api/unset.ts): the contract and the
  // public description say "unset" differently.
  const result = schema.safeParse(unsetAsNull(schema, body));
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({
    path: i.path.length ? z.core.toDotPath(i.path) : "(root)",
    message: i.message,
  }));
  const shown = issues
    .slice(0, MAX_ISSUES_SHOWN)
    .map((i) => `at ${i.path}: ${i.message}`)
    .join("; ");
  const more = issues.length > MAX_ISSUES_SHOWN ? `; and ${issues.length - MAX_ISSUES_SHOWN} more` : "";
  return fail(ctx, `the response (HTTP ${ctx.status}) does not match the expected schema: ${shown}${more}`, issues);
}

/** A 2xx whose body is not JSON at all. */
export function notJson(
  ctx: { method: string; path: string; status: number; attempts: number },
  contentType: string | undefined,
): never {
  return fail(ctx, `the response (HTTP ${ctx.status}, content-type ${contentType ?? "none"}) is not valid JSON`, [
    { path: "(root)", message: "not JSON" },
  ]);
}

function fail(
  ctx: { method: string; path: string; attempts: number },
  what: string,
  issues: Array<{ path: string; message: string }>,
): never {
  throw new TxmailApiError({
    category: "schema",
    method: ctx.method,
    path: ctx.path,
    attempts: ctx.attempts,
    serviceMessage: what,
    issues,
    hint: "The service answered something this provider does not understand; this is a client/service version mismatch, not a problem with your program.",
  });
}
