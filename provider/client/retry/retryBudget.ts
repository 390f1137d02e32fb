// What one logical call may still spend on waiting, kept as two separate budgets.
//
// Failures (network errors, timeouts, 408, 5xx) are the service or the path to it misbehaving: they
// use up attempts and the failure time budget, so a dead endpoint fails the run in about 2 minutes.
// A 429 or an in-progress 409 is the service asking us to wait — the account's limit is shared with
// the application sending the tenants' mail, so long stretches of 429s are normal during a deploy,
// and an identical create's lease can last 5 minutes. Those waits use up neither; the busy-wait
// budget (10 minutes by default) bounds them instead, together with time spent in the account's
// client-side pace. Keeping the two apart means a 429 storm cannot eat the failure budget and a
// failure cannot cut a busy wait short.
import type { RetryOptions } from "../options";

export type WaitCause = "failure" | "busy";

export class RetryBudget {
  /** Failed attempts so far (the ones that count against `maxAttempts`). */
  failures = 0;
  /** 429s so far: numbers their backoff when the service sends no Retry-After. */
  rateLimited = 0;
  /** Time spent waiting on a busy account: 429 and in-progress waits, and pacing. */
  busyMs = 0;

  constructor(
    private readonly opts: RetryOptions,
    private readonly started: number,
  ) {}

  /** Records one response or failure that will be waited out; returns what kind of wait it is. */
  record(event: "rate-limited" | "in-progress" | "failure"): WaitCause {
    if (event === "failure") {
      this.failures++;
      return "failure";
    }
    if (event === "rate-limited") this.rateLimited++;
    return "busy";
  }

  /** Why a wait of `delayMs` may not begin at `now`, or undefined when it may. */
  refusal(cause: WaitCause, delayMs: number, now: number): string | undefined {
    const { maxAttempts, maxElapsedMs, maxBusyWaitMs } = this.opts;
    if (cause === "busy") {
      if (this.busyMs + delayMs <= maxBusyWaitMs) return undefined;
      return (
        `gave up: waiting ${seconds(delayMs)} more would exceed the ${seconds(maxBusyWaitMs)} budget for ` +
        `waiting on a busy account (TXMAIL_BUSY_WAIT_SECONDS)`
      );
    }
    if (this.failures >= maxAttempts) return `gave up after ${maxAttempts} attempts`;
    const failing = now - this.started - this.busyMs;
    if (failing + delayMs <= maxElapsedMs) return undefined;
    return `gave up: waiting ${seconds(delayMs)} more would exceed the ${seconds(maxElapsedMs)} retry budget`;
  }

  /** The log line's account of what this wait costs. */
  describe(cause: WaitCause): string {
    const { maxAttempts, maxBusyWaitMs } = this.opts;
    return cause === "busy"
      ? `busy: not an attempt; ${seconds(this.busyMs)} of ${seconds(maxBusyWaitMs)} waited`
      : `attempt ${this.failures + 1} of ${maxAttempts}`;
  }
}

export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
