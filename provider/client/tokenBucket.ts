// Client-side rate limiter, shared by every request of a provider process to one account.
//
// The service allows 100 requests/s with a burst of 200 *per account, shared by all its keys*. A large
// `pulumi up` runs many resource operations in parallel; without pacing they would collect 429s and
// burn their retry budgets. This is a token bucket with reservations: tokens may go negative, each
// acquire books the next free slot and sleeps until it, so waiters are served in order with no polling.
//
// When a 429 arrives anyway (the application sending the tenants' mail shares the account's limit),
// `penalize` pauses the whole bucket for the server's Retry-After (or the backoff) and halves the
// pace; from the end of the pause the pace doubles every few hundred ms back to the ceiling
// (paceCurve.ts says why). Waiters that booked a slot before the penalty notice it when they wake and
// re-book behind the pause, so the storm is absorbed instead of repeated.
import { systemClock, type Clock } from "./clock";
import { PaceCurve } from "./paceCurve";

export interface RateLimitOptions {
  /** Sustained requests per second. */
  ratePerSecond: number;
  /** Requests that may go out back-to-back after an idle period. */
  burst: number;
  /** Floor for the rate after repeated 429s. */
  minRatePerSecond?: number;
  /** After a 429's pause ends, the pace doubles every this many ms until it is back at `ratePerSecond`. */
  recoveryDoublingMs?: number;
}

/**
 * Just under the service's limit (100 rps, burst 200 per account): at exact parity, timer and network
 * jitter bunch requests past the server's bucket and every 429 costs a Retry-After second. With 3 %
 * slack, 1 000 creates at Pulumi-like concurrency use ~96 % of the limit with no 429
 * (bench/rateLimit.ts; 100/200 measured 88 % with 429s). Recovery doubles every 250 ms: from the
 * 1 rps floor to 97 rps in ~1.7 s after the last pause (bench/stormRecovery.ts).
 */
export const DEFAULT_RATE_LIMIT: Required<RateLimitOptions> = {
  ratePerSecond: 97,
  burst: 195,
  minRatePerSecond: 1,
  recoveryDoublingMs: 250,
};

/** Re-bookings after penalties a single acquire will do before going anyway (bounded loop). */
const MAX_REBOOKINGS = 32;

/** What the account's pace allows right now. */
export interface PaceSnapshot {
  /** Requests per second allowed now (the configured rate unless 429s cut it). */
  ratePerSecond: number;
  /** The configured ceiling. */
  ceilingPerSecond: number;
  /** How long nothing may be sent (a 429's Retry-After still running); 0 when not paused. */
  pausedForMs: number;
}

export class TokenBucket {
  private readonly minRate: number;
  private readonly burst: number;
  private readonly curve: PaceCurve;
  /** Available tokens; negative = slots already promised to waiters (each waits its turn). */
  private tokens: number;
  /** Time up to which tokens have been accounted for. */
  private last: number;
  /** No request leaves (and no token accrues) before this time (set by 429s). */
  private pausedUntil = 0;
  /** Incremented by every penalty: a waiter whose booking predates the current epoch re-books. */
  private epoch = 0;
  /** Incremented by every cut of the pace: a 429 to a request sent before the latest cut is not news. */
  private cuts = 0;

  constructor(
    opts: RateLimitOptions,
    private readonly clock: Clock = systemClock,
  ) {
    if (!(opts.ratePerSecond > 0) || !(opts.burst >= 1))
      throw new RangeError("rate limit needs ratePerSecond > 0 and burst >= 1");
    const doublingMs = opts.recoveryDoublingMs ?? DEFAULT_RATE_LIMIT.recoveryDoublingMs;
    if (!(doublingMs > 0)) throw new RangeError("rate limit needs recoveryDoublingMs > 0");
    this.minRate = Math.min(opts.minRatePerSecond ?? DEFAULT_RATE_LIMIT.minRatePerSecond, opts.ratePerSecond);
    this.burst = Math.floor(opts.burst);
    this.curve = new PaceCurve(opts.ratePerSecond, doublingMs);
    this.tokens = this.burst;
    this.last = clock.now();
  }

  /** Current sustained rate (lower than configured after 429s, climbing back once they stop). */
  get currentRate(): number {
    return this.curve.rateAt(this.clock.now());
  }

  /** The pace now, for logs and benchmarks. */
  snapshot(): PaceSnapshot {
    const now = this.clock.now();
    return {
      ratePerSecond: this.curve.rateAt(now),
      ceilingPerSecond: this.curve.ceiling,
      pausedForMs: Math.max(0, this.pausedUntil - now),
    };
  }

  /** Accrues tokens for the time since the last update (none during a pause), along the pace curve. */
  private refill(now: number): void {
    const from = Math.max(this.last, this.pausedUntil);
    if (now > from) this.tokens = Math.min(this.burst, this.tokens + this.curve.accrued(from, now));
    this.last = Math.max(this.last, now);
  }

  /**
   * Books one slot and returns how long to wait for it (0 = go now). A waiter with deficit d (tokens
   * went to -d) gets its token when d tokens have accrued after now or the pause, whichever is later.
   */
  reserve(): { waitMs: number; epoch: number; cut: number } {
    const now = this.clock.now();
    this.refill(now);
    this.tokens -= 1;
    const accrualStart = Math.max(now, this.pausedUntil);
    const slot = this.tokens < 0 ? this.curve.timeToAccrue(accrualStart, -this.tokens) : accrualStart;
    return { waitMs: slot - now, epoch: this.epoch, cut: this.cuts };
  }

  /**
   * Waits for permission to send one request. Resolves to the pace generation it was sent under;
   * hand it to `penalize` if that request comes back 429.
   */
  async acquire(signal?: AbortSignal): Promise<number> {
    let booked = this.reserve();
    for (let i = 0; i < MAX_REBOOKINGS; i++) {
      if (booked.waitMs > 0) await this.clock.sleep(booked.waitMs, signal);
      // A 429 while we slept re-planned the schedule (pause, lower rate, promised slots forgiven):
      // book again, or pre-penalty bookings would go out on top of the new, slower schedule.
      if (booked.epoch === this.epoch) return this.cuts;
      booked = this.reserve();
    }
    return this.cuts;
  }

  /**
   * A 429 came back: stop everyone for `pauseMs`, drop the burst allowance and halve the pace. The
   * pace is cut at most once per storm: only a 429 to a request sent under the current pace (its
   * `sentUnder` generation from `acquire`) cuts again; the others, sent before the latest cut,
   * extend the pause only. Without `sentUnder`, a 429 during a running pause counts as the same storm.
   */
  penalize(pauseMs: number, sentUnder?: number): void {
    const now = this.clock.now();
    this.refill(now);
    const news = sentUnder === undefined ? now >= this.pausedUntil : sentUnder === this.cuts;
    this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, pauseMs));
    if (news) {
      this.curve.cut(Math.max(this.minRate, this.curve.rateAt(now) / 2), this.pausedUntil);
      this.cuts++;
    } else {
      this.curve.holdUntil(this.pausedUntil);
    }
    // No burst right after a 429, and every outstanding booking is void (those waiters re-book).
    this.tokens = 0;
    this.epoch++;
  }
}

// One bucket per (base URL, account) per process: every client built for the same account shares it.
const buckets = new Map<string, TokenBucket>();

export function sharedBucket(key: string, opts: RateLimitOptions, clock: Clock = systemClock): TokenBucket {
  let b = buckets.get(key);
  if (!b) {
    b = new TokenBucket(opts, clock);
    buckets.set(key, b);
  }
  return b;
}

/** For tests: forget all shared buckets. */
export function resetSharedBucketsForTests(): void {
  buckets.clear();
}
