// Client-side rate limiter, shared by every request to one account from this process — and, with a
// machine store (machinePace.ts), from every process on the machine.
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
import { systemClock, type Clock } from "../clock";
import { PaceCurve } from "./paceCurve";
import { machinePaceStore } from "./machinePace";
import { MemoryPaceStore, type PaceState, type PaceStore } from "./paceStore";

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

/** Early wake-ups one sleep corrects before going anyway (bounded loop; one is the rule). */
const MAX_EARLY_WAKEUPS = 4;

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
  /** How long until the pace is back at its ceiling if no other 429 comes (the pause included); 0 when it is. */
  recoversInMs: number;
  /** Who shares this pace: this process alone, or every process on the machine (machinePace.ts). */
  sharedBy: "process" | "machine";
}

export class TokenBucket {
  private readonly minRate: number;
  private readonly burst: number;
  private readonly ceiling: number;
  private readonly doublingMs: number;
  /** A full bucket at the ceiling, for a store that holds no state yet. */
  private readonly fresh: () => PaceState;

  constructor(
    opts: RateLimitOptions,
    private readonly clock: Clock = systemClock,
    /** Where the state lives: this process (default), or a file every process on the machine shares. */
    private readonly store: PaceStore = new MemoryPaceStore(),
  ) {
    if (!(opts.ratePerSecond > 0) || !(opts.burst >= 1))
      throw new RangeError("rate limit needs ratePerSecond > 0 and burst >= 1");
    const doublingMs = opts.recoveryDoublingMs ?? DEFAULT_RATE_LIMIT.recoveryDoublingMs;
    if (!(doublingMs > 0)) throw new RangeError("rate limit needs recoveryDoublingMs > 0");
    this.minRate = Math.min(opts.minRatePerSecond ?? DEFAULT_RATE_LIMIT.minRatePerSecond, opts.ratePerSecond);
    this.burst = Math.floor(opts.burst);
    this.ceiling = opts.ratePerSecond;
    this.doublingMs = doublingMs;
    this.fresh = () => ({
      tokens: this.burst,
      last: clock.now(),
      pausedUntil: 0,
      epoch: 0,
      cuts: 0,
      curve: new PaceCurve(this.ceiling, this.doublingMs).state,
    });
    this.store.read(this.fresh); // a first reader fixes the start of accrual (a new store's bucket is full now)
  }

  private curveOf(s: PaceState): PaceCurve {
    return new PaceCurve(this.ceiling, this.doublingMs, s.curve);
  }

  /** Current sustained rate (lower than configured after 429s, climbing back once they stop). */
  get currentRate(): number {
    return this.curveOf(this.store.read(this.fresh)).rateAt(this.clock.now());
  }

  /** The pace now, for logs and benchmarks. */
  snapshot(): PaceSnapshot {
    const s = this.store.read(this.fresh);
    const now = this.clock.now();
    return {
      ratePerSecond: this.curveOf(s).rateAt(now),
      ceilingPerSecond: this.ceiling,
      pausedForMs: Math.max(0, s.pausedUntil - now),
      recoversInMs: Math.max(0, this.curveOf(s).fullAt - now),
      sharedBy: this.store.scope,
    };
  }

  /** Accrues tokens for the time since the last update (none during a pause), along the pace curve. */
  private refill(s: PaceState, curve: PaceCurve, now: number): void {
    const from = Math.max(s.last, s.pausedUntil);
    if (now > from) s.tokens = Math.min(this.burst, s.tokens + curve.accrued(from, now));
    s.tokens = Math.min(s.tokens, this.burst); // a state left by a process with a larger burst
    s.last = Math.max(s.last, now);
  }

  /**
   * Books one slot and returns how long to wait for it (0 = go now). A waiter with deficit d (tokens
   * went to -d) gets its token when d tokens have accrued after now or the pause, whichever is later.
   */
  reserve(): { waitMs: number; epoch: number; cut: number; slot: number } {
    return this.store.update(this.fresh, (s) => {
      const now = this.clock.now();
      const curve = this.curveOf(s);
      this.refill(s, curve, now);
      s.tokens -= 1;
      const accrualStart = Math.max(now, s.pausedUntil);
      const slot = s.tokens < 0 ? curve.timeToAccrue(accrualStart, -s.tokens) : accrualStart;
      return { waitMs: slot - now, epoch: s.epoch, cut: s.cuts, slot };
    });
  }

  /**
   * Waits for permission to send one request. Resolves to the pace generation it was sent under;
   * hand it to `penalize` if that request comes back 429.
   */
  async acquire(signal?: AbortSignal): Promise<number> {
    let booked = this.reserve();
    // A slot that is now was booked under the schedule read this very moment: nothing can have
    // re-planned it. Only a wait needs the second look below, which costs another turn of the
    // machine's lock — in a fleet, where two plugins share an account's pace file, the lock's file
    // operations were most of each request's CPU (bench/RESULTS.md, "Where a fleet's up spends").
    if (booked.waitMs <= 0) return booked.cut;
    for (let i = 0; i < MAX_REBOOKINGS; i++) {
      if (booked.waitMs > 0) await this.sleepUntil(booked.slot, booked.waitMs, signal);
      // A 429 while we slept re-planned the schedule (pause, lower rate, promised slots forgiven):
      // book again, or pre-penalty bookings would go out on top of the new, slower schedule.
      const now = this.store.read(this.fresh);
      if (booked.epoch === now.epoch) return now.cuts;
      booked = this.reserve();
    }
    return booked.cut;
  }

  /**
   * Sleeps until `slot` by the clock. Node times a timer from the event loop's cached time, which is
   * behind the wall clock by however long the current turn of the loop has run: on a busy machine a
   * timer fires tens of ms early, and a request sent that early spends a token the account does not
   * have yet (a 429 for it, and a pause for everyone sharing the pace). So the rest is slept again.
   */
  private async sleepUntil(slot: number, waitMs: number, signal?: AbortSignal): Promise<void> {
    await this.clock.sleep(waitMs, signal);
    for (let i = 0; i < MAX_EARLY_WAKEUPS; i++) {
      const early = slot - this.clock.now();
      if (early < 1) return; // timers have 1 ms resolution; the pace's slack absorbs less than that
      await this.clock.sleep(early, signal);
    }
  }

  /**
   * A 429 came back: stop everyone for `pauseMs`, drop the burst allowance and halve the pace. The
   * pace is cut at most once per storm: only a 429 to a request sent under the current pace (its
   * `sentUnder` generation from `acquire`) cuts again; the others, sent before the latest cut,
   * extend the pause only. Without `sentUnder`, a 429 during a running pause counts as the same storm.
   */
  penalize(pauseMs: number, sentUnder?: number): void {
    this.store.update(this.fresh, (s) => {
      const now = this.clock.now();
      const curve = this.curveOf(s);
      this.refill(s, curve, now);
      const news = sentUnder === undefined ? now >= s.pausedUntil : sentUnder === s.cuts;
      s.pausedUntil = Math.max(s.pausedUntil, now + Math.max(0, pauseMs));
      if (news) {
        curve.cut(Math.max(this.minRate, curve.rateAt(now) / 2), s.pausedUntil);
        s.cuts++;
      } else {
        curve.holdUntil(s.pausedUntil);
      }
      s.curve = curve.state;
      // No burst right after a 429, and every outstanding booking is void (those waiters re-book).
      s.tokens = 0;
      s.epoch++;
    });
  }
}

// One bucket per (base URL, account) per process: every client built for the same account shares it.
const buckets = new Map<string, TokenBucket>();

/**
 * The account's bucket. With `machineDir`, its state lives in a file there that every process on the
 * machine shares (machinePace.ts), unless the directory is unusable or the clock is not the system
 * clock (only wall-clock time means the same in every process: a test's fake clock paces alone).
 */
export function sharedBucket(
  key: string,
  opts: RateLimitOptions,
  clock: Clock = systemClock,
  machineDir?: string,
): TokenBucket {
  let b = buckets.get(key);
  if (!b) {
    const machine = machineDir !== undefined && clock === systemClock ? machinePaceStore(key, machineDir) : undefined;
    b = new TokenBucket(opts, clock, machine);
    buckets.set(key, b);
  }
  return b;
}

/** For tests: forget all shared buckets. */
export function resetSharedBucketsForTests(): void {
  buckets.clear();
}
