// What a rotating credential's schedule asks of the next `up`, from its state alone: one decision,
// taken by the provider's diff (index.ts) and read ahead by `txmail-fleet rotate`, which runs only
// the shards holding something due (fleet/rotate/plan.ts).
import { type Schedule, periods } from "./schedule";

/** The schedule's work on a credential: a new one made, or the previous one revoked. */
export type Work = "rotate" | "revoke previous";

/** Why a rotation is due: its schedule, an early rotation asked for (`--older-than`), or a current one gone. */
export type Cause = "schedule" | "older than" | "gone";

/** What the decision reads of a rotating resource's state (its outputs). */
export interface RotationState {
  [field: string]: unknown;
  rotatedAt?: unknown;
  createdAt?: unknown;
  currentGone?: unknown;
  previousId?: unknown;
}

/** When the current credential was made: state's `rotatedAt`, else the service's `createdAt` of the first. */
export function rotatedAtOf(state: RotationState, now: number): number {
  const t = Date.parse(String(state.rotatedAt ?? state.createdAt));
  return Number.isFinite(t) ? t : now;
}

/**
 * The work due at `now`, if any. `olderThanMs` (TXMAIL_ROTATE_OLDER_THAN, set by `txmail-fleet rotate
 * --older-than`) makes a current credential at least that old due now, whatever its schedule says.
 */
export function dueWork(
  state: RotationState,
  schedule: Schedule,
  now: number,
  olderThanMs?: number,
): { work: Work; cause?: Cause } | undefined {
  const { everyMs, overlapMs } = periods(schedule);
  const at = rotatedAtOf(state, now);
  if (state.currentGone === true) return { work: "rotate", cause: "gone" };
  if (now >= at + everyMs) return { work: "rotate", cause: "schedule" };
  if (olderThanMs !== undefined && now - at >= olderThanMs) return { work: "rotate", cause: "older than" };
  if (typeof state.previousId === "string" && now >= at + overlapMs) return { work: "revoke previous" };
  return undefined;
}
