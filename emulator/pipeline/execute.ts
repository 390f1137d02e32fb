// The execution stage: the handler and its stored idempotent response commit in one transaction;
// a handler 4xx is stored too (rule 5), a 5xx or a crash releases the key (rule 6).
import type { Ctx, Endpoint } from "../context";
import { HttpError, type Reply, errorReply } from "../http/errors";
import type { Claim, Idempotency } from "../idempotency";
import type { Db } from "../store/db";

export function execute(db: Db, idem: Idempotency, ctx: Ctx, endpoint: Endpoint, claim: Claim | undefined): Reply {
  try {
    return db.tx(() => {
      const reply = endpoint.handler(ctx);
      if (claim) idem.record(claim, reply);
      return reply;
    });
  } catch (e) {
    return failureReply(e, db, idem, ctx, claim);
  }
}

/** The answer to a failure of the request's work: a 4xx is stored with the claim (rule 5), anything else releases it (rule 6). */
export function failureReply(e: unknown, db: Db, idem: Idempotency, ctx: Ctx, claim: Claim | undefined): Reply {
  if (e instanceof HttpError && e.status < 500) {
    const reply = errorReply(e);
    if (claim) db.tx(() => idem.record(claim, reply));
    return reply;
  }
  if (claim) db.tx(() => idem.release(claim));
  if (e instanceof HttpError) return errorReply(e);
  process.stderr.write(
    `emulator: handler failure on ${ctx.method} ${ctx.template}: ${String((e as Error)?.stack ?? e)}\n`,
  );
  return { status: 500, body: { message: "internal server error" } };
}
