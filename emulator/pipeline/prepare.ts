// The preparation stage, between the idempotency claim and execution: an endpoint's asynchronous
// work (check-dns's DNS lookups) runs here, outside the transaction, because handlers run
// synchronously inside it. Its result reaches the handler as `ctx.prepared`; it stores nothing, and
// what it throws is answered as the handler's failures are (execute.ts: a 5xx releases the claim).
import type { Ctx, Endpoint } from "../context";
import type { Reply } from "../http/errors";
import type { Claim, Idempotency } from "../idempotency";
import type { Db } from "../store/db";
import { execute, failureReply } from "./execute";

export async function prepareAndExecute(
  db: Db,
  idem: Idempotency,
  ctx: Ctx,
  endpoint: Endpoint,
  claim: Claim | undefined,
): Promise<Reply> {
  if (endpoint.prepare) {
    try {
      ctx.prepared = await endpoint.prepare(ctx);
    } catch (e) {
      return failureReply(e, db, idem, ctx, claim);
    }
  }
  return execute(db, idem, ctx, endpoint, claim);
}
