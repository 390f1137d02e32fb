// Client-side rate limiter, shared by every request of a provider process to one account.
//
// The service allows 100 requests/s with a burst of 200 *per account, shared by all its keys*. A large
// `pulumi up` runs many resource operations in parallel; without pacing they would collect 429s and
// burn their retry budgets. This is a token bucket with reservations: tokens may go negative, each
// acquire books the next free slot and sleeps until it, so waiters are served in order with no polling.
//
// When a 429 arrives anyway (other processes share the account's limit), `penalize` pauses the whole
// bucket for the server's Retry-After (or the backoff) and halves the rate; successes restore the rate
// gradually (additive increase, multiplicative decrease). Waiters that booked a slot before the penalty
// notice it when they wake and re-book behind the pause, so the storm is absorbed instead of repeated.
import { systemClock, type Clock } from "./clock";

export interface RateLimitOptions {
  /** Sustained requests per second. */
  ratePerSecond: number;
  /** Requests that may go out back-to-back after an idle period. */
  burst: number;
  /** Floor for the rate after repeated 429s. */
  minRatePerSecond?: number;
}

/**
 * Just under the service's limit (100 rps, burst 200 per account): at exact parity, timer and network
 * jitter bunch requests past the server's bucket and every 429 costs a Retry-After second. With 3 %
 * slack, 1 000 creates at Pulumi-like concurrency use ~96 % of the limit with no 429
 * (bench/rateLimit.ts; 100/200 measured 88 % with 429s).
 */
export const DEFAULT_RATE_LIMIT: Required<RateLimitOptions> = { ratePerSecond: 97, burst: 195, minRatePerSecond: 1 };

/** Re-bookings after penalties a single acquire will do before going anyway (bounded loop). */
const MAX_REBOOKINGS = 32;

export class TokenBucket {
  private readonly maxRate: number;
  private readonly minRate: number;
  private readonly burst: number;
  private rate: number;
  /** Available tokens; negative = slots already promised to waiters (each waits its turn). */
  private tokens: number;
  /** Time up to which tokens have been accounted for. */
  private last: number;
  /** No request leaves (and no token accrues) before this time (set by 429s). */
  private pausedUntil = 0;
  /** Incremented by every penalty: a waiter whose booking predates the current epoch re-books. */
  private epoch = 0;

  constructor(
    opts: RateLimitOptions,
    private readonly clock: Clock = systemClock,
  ) {
    if (!(opts.ratePerSecond > 0) || !(opts.burst >= 1))
      throw new RangeError("rate limit needs ratePerSecond > 0 and burst >= 1");
    this.maxRate = opts.ratePerSecond;
    this.minRate = Math.min(opts.minRatePerSecond ?? DEFAULT_RATE_LIMIT.minRatePerSecond, opts.ratePerSecond);
    this.burst = Math.floor(opts.burst);
    this.rate = this.maxRate;
    this.tokens = this.burst;
    this.last = clock.now();
  }

  /** Current sustained rate (lower than configured after 429s). */
  get currentRate(): number {
    return this.rate;
  }

  /** Accrues tokens for the time since the last update (none during a pause), at the current rate. */
  private refill(now: number): void {
    const from = Math.max(this.last, this.pausedUntil);
    if (now > from) this.tokens = Math.min(this.burst, this.tokens + ((now - from) * this.rate) / 1000);
    this.last = Math.max(this.last, now);
  }

  /**
   * Books one slot and returns how long to wait for it (0 = go now). A waiter with deficit d (tokens
   * went to -d) gets its token d intervals after accrual (re)starts, i.e. after now or the pause.
   */
  reserve(): { waitMs: number; epoch: number } {
    const now = this.clock.now();
    this.refill(now);
    this.tokens -= 1;
    const accrualStart = Math.max(now, this.pausedUntil);
    const deficitMs = this.tokens < 0 ? (-this.tokens * 1000) / this.rate : 0;
    return { waitMs: accrualStart - now + deficitMs, epoch: this.epoch };
  }

  /** Waits for permission to send one request. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (let i = 0; i < MAX_REBOOKINGS; i++) {
      const { waitMs, epoch } = this.reserve();
      if (waitMs > 0) await this.clock.sleep(waitMs, signal);
      // A 429 while we slept re-planned the schedule (pause, lower rate, promised slots forgiven):
      // book again, or pre-penalty bookings would go out on top of the new, slower schedule.
      if (epoch === this.epoch) return;
    }
  }

  /**
   * A 429 came back: stop everyone for `pauseMs`, drop the burst allowance and halve the rate.
   * Concurrent 429s from the same storm extend the pause but halve the rate only once per pause.
   */
  penalize(pauseMs: number): void {
    const now = this.clock.now();
    this.refill(now);
    if (now >= this.pausedUntil) this.rate = Math.max(this.minRate, this.rate / 2);
    this.pausedUntil = Math.max(this.pausedUntil, now + Math.max(0, pauseMs));
    // No burst right after a 429, and every outstanding booking is void (those waiters re-book).
    this.tokens = 0;
    this.epoch++;
  }

  /** A request succeeded: recover 5% of the configured rate per success, up to the configured rate. */
  onSuccess(): void {
    if (this.rate >= this.maxRate) return;
    this.refill(this.clock.now()); // account for elapsed time at the old rate before changing it
    this.rate = Math.min(this.maxRate, this.rate + this.maxRate * 0.05);
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
