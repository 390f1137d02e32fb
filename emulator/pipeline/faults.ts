// Where injected faults act on a request: before anything executes (429, 5xx, dropped connection),
// as a delay once the idempotency key is claimed, and after the commit (5xx with the key released,
// dropped connection, held answer). The modes themselves are described in faults.ts.
import type { Clock } from "../clock";
import type { Fault } from "../faults";
import { RATE_LIMITED, type Reply } from "../http/errors";
import { DROP, type Answer } from "../http/respond";
import type { Claim, Idempotency } from "../idempotency";
import type { Db } from "../store/db";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The answer a fault gives instead of executing, if it is one of the "before" modes. */
export function faultBefore(fault: Fault | undefined): Answer | undefined {
  switch (fault?.kind) {
    case "rate-limit":
      return {
        status: 429,
        body: { message: RATE_LIMITED },
        headers: fault.retryAfter === null ? {} : { "retry-after": String(fault.retryAfter) },
      };
    case "error-before":
      return { status: fault.status, body: { message: `injected fault: ${fault.status} before execution` } };
    case "drop-before":
      return DROP;
    default:
      return undefined;
  }
}

/** The "delay" fault: holds the request after its key is claimed; the handler then sees the new time. */
export async function delayBefore(fault: Fault | undefined, clock: Clock): Promise<number | undefined> {
  if (fault?.kind !== "delay") return undefined;
  await sleep(fault.delayMs);
  return clock.now();
}

/** The "error-after" fault: the work is committed, the answer is a 5xx and the key is released (rule 6). */
export function errorAfter(
  fault: Fault | undefined,
  reply: Reply,
  claim: Claim | undefined,
  db: Db,
  idem: Idempotency,
): Reply {
  if (fault?.kind !== "error-after") return reply;
  if (claim) db.tx(() => idem.release(claim));
  return { status: fault.status, body: { message: `injected fault: ${fault.status} after commit` } };
}

/** The "drop-after" and "delay-after" faults, once the claim is over: no answer, or a late one. */
export async function answerAfter(fault: Fault | undefined, reply: Reply): Promise<Answer> {
  if (fault?.kind === "drop-after") return DROP;
  if (fault?.kind === "delay-after") await sleep(fault.delayMs);
  return reply;
}
