// check: validates inputs at preview with the declaration's zod schema (skipping values unknown at
// preview) and returns the canonical form, so state and diffs show what the service will store.
import { z } from "zod";
import { connectionFieldProblem, connectionProblems } from "../connection";
import type { Props } from "../declaration";
import { isUnknown } from "../unknowns";
import type { KindContext } from "./context";

export interface CheckFailure {
  property: string;
  reason: string;
}

/** One connection field, with the same rule (and words) as the stack config it overrides. */
const connectionField = (field: "apiKey" | "accountId" | "baseUrl") =>
  z
    .string()
    .min(1, "must not be empty")
    .superRefine((v, ctx) => {
      const problem = connectionFieldProblem(field, v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional();

const Connection = z
  .strictObject({
    apiKey: connectionField("apiKey"),
    accountId: connectionField("accountId"),
    baseUrl: connectionField("baseUrl"),
  })
  .optional();

/** Inputs every resource takes besides its own (core/declaration.ts CommonInputs). */
const CommonInputs = z.object({
  connection: Connection,
  adoptId: z.string().min(1, "must not be empty").optional(),
  __urn: z.string().min(1).optional(),
  __stackSalt: z.string().min(1).optional(),
  __replaceOnChanges: z.array(z.string()).optional(),
});

/** Rules a capability adds for the inputs every kind takes (operations/watch.ts: no `adoptId`). */
export type CommonRefusals = (k: KindContext, news: Props) => CheckFailure[];

export async function check(
  k: KindContext,
  olds: Props,
  news: Props,
  refusals: CommonRefusals = () => [],
): Promise<{ inputs?: Props; failures?: CheckFailure[] }> {
  const own: Record<string, unknown> = {};
  const unknown: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(news)) {
    if (key === "__provider" || key in CommonInputs.shape) continue;
    (isUnknown(v) ? unknown : own)[key] = v;
  }
  const failures: CheckFailure[] = [];
  const shape = k.declaration.inputs as unknown as z.ZodObject;
  const mask = Object.fromEntries(Object.keys(unknown).map((key) => [key, true as const]));
  // Values unknown at preview are checked at update time, when they are known.
  const schema = Object.keys(mask).length > 0 ? shape.omit(mask as never) : shape;
  const parsed = schema.safeParse(own);
  if (!parsed.success) failures.push(...toFailures(parsed.error));
  const common = CommonInputs.safeParse({
    connection: isUnknown(news.connection) ? undefined : news.connection,
    adoptId: news.adoptId,
    __urn: news.__urn,
    __stackSalt: news.__stackSalt,
    __replaceOnChanges: news.__replaceOnChanges,
  });
  if (!common.success) failures.push(...toFailures(common.error));
  failures.push(...refusals(k, news));
  if (failures.length > 0) return { failures };
  // The connection this resource would use, wherever each field comes from: a preview that
  // passes is an up that can reach the service (issue: a bad txmail:accountId used to pass).
  // Answered as a failure of the resource, not thrown: the engine then says it once, on the
  // resource, where a thrown error is also printed by the dynamic-provider host with its stack.
  const connection = connectionProblems(news.connection as Record<string, unknown> | undefined);
  if (connection.length > 0) return { failures: [{ property: "", reason: connection.join("; ") }] };
  const inputs: Props = { ...(parsed.data as Record<string, unknown>), ...unknown };
  const crossField = k.declaration.validate?.(inputs, olds) ?? [];
  if (crossField.length > 0) return { failures: crossField };
  for (const key of ["connection", "adoptId", "__urn", "__stackSalt", "__replaceOnChanges"])
    if (news[key] !== undefined) (inputs as Record<string, unknown>)[key] = news[key];
  return { inputs };
}

/** Zod issues → engine check failures naming the input (with its index path) and the rule. */
export function toFailures(error: z.ZodError): CheckFailure[] {
  return error.issues.map((issue) => {
    const property = issue.path.reduce<string>(
      (acc, seg) => (typeof seg === "number" ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)),
      "",
    );
    return { property: property || "(inputs)", reason: `${property || "inputs"}: ${issue.message}` };
  });
}
