// The idempotency stage: on endpoints that declare it, an Idempotency-Key either claims a fresh
// execution or answers at once (replay, in-progress 409, mismatch 422). See idempotency.ts.
import type { Ctx, Endpoint } from "../context";
import type { Reply } from "../http/errors";
import { type Claim, Idempotency } from "../idempotency";

export function claimKey(
  idem: Idempotency,
  ctx: Ctx,
  endpoint: Endpoint,
  header: string | string[] | undefined,
): { claim: Claim | undefined } | { reply: Reply } {
  if (!endpoint.idempotent || header === undefined) return { claim: undefined };
  const key = Array.isArray(header) ? header.join(",") : header;
  Idempotency.checkKey(key);
  return idem.begin(
    { account: ctx.account.id, key, method: ctx.method, path: ctx.path, secret: endpoint.idempotent === "secret" },
    ctx.raw,
  );
}
