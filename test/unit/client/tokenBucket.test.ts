import type { Clock } from "../../../provider/client/clock";
import { FakeClock } from "../../../provider/client/clock";
import {
  MemoryPaceStore,
  type PaceState,
  TokenBucket,
  resetSharedBucketsForTests,
  sharedBucket,
} from "../../../provider/client/pace";

/** A clock whose sleepers wake only when the test advances time (to interleave concurrent waiters). */
class ManualClock implements Clock {
  private t = 0;
  private sleepers: Array<{ at: number; wake: () => void }> = [];
  now(): number {
    return this.t;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.sleepers.push({ at: this.t + ms, wake: resolve }));
  }
  /** Moves time forward and wakes every sleeper that is due (then lets their continuations run). */
  async advanceTo(t: number): Promise<void> {
    this.t = t;
    const due = this.sleepers.filter((s) => s.at <= t);
    this.sleepers = this.sleepers.filter((s) => s.at > t);
    due.forEach((s) => s.wake());
    for (let i = 0; i < 10; i++) await Promise.resolve();
  }
  get pending(): number {
    return this.sleepers.length;
  }
}

/** A doubling time so long that the pace stays where a 429 cut it for the whole test. */
const NO_RECOVERY = 1e15;

describe("TokenBucket (fake clock)", () => {
  test("a burst of 200 goes at once, then 100/s", async () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 100, burst: 200 }, clock);
    for (let i = 0; i < 200; i++) await b.acquire();
    expect(clock.sleeps).toEqual([]);
    expect(clock.now()).toBe(0);
    await b.acquire();
    expect(clock.sleeps).toEqual([10]);
    for (let i = 0; i < 99; i++) await b.acquire();
    // 100 requests past the burst take 1 s of waiting in total
    expect(clock.now()).toBeCloseTo(1000, 5);
  });

  test("idle time refills the burst (up to its size only)", async () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 10, burst: 5 }, clock);
    for (let i = 0; i < 5; i++) await b.acquire();
    clock.advance(60_000); // a minute idle refills at most 5
    for (let i = 0; i < 5; i++) await b.acquire();
    expect(clock.sleeps).toEqual([]);
    await b.acquire();
    expect(clock.sleeps).toEqual([100]);
  });

  test("reserve() books slots one interval apart after the burst", () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 4, burst: 2 }, clock);
    expect([1, 2, 3, 4, 5].map(() => b.reserve().waitMs)).toEqual([0, 0, 250, 500, 750]);
  });

  test("a slot booked during the climb back is not scheduled as if the pace stayed low", async () => {
    // regression: a GCRA formulation whose burst tolerance depended on the current rate stalled for
    // seconds when the rate recovered; now slots follow the integral of the rising pace
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 100, burst: 200 }, clock);
    b.penalize(50); // 50 rps from t=50, doubling every 250 ms: back at 100 rps at t=300
    for (let i = 0; i < 20; i++) await b.acquire();
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(70); // the pause plus at most one interval
    expect(clock.now()).toBeLessThan(50 + 20 * 20); // faster than 20 slots at the halved rate
    expect(b.currentRate).toBeGreaterThan(50);
  });

  test("penalize pauses everyone, drops the burst and halves the rate (recovery off)", async () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 100, burst: 200, recoveryDoublingMs: NO_RECOVERY }, clock);
    b.penalize(2000);
    expect(b.currentRate).toBe(50);
    await b.acquire();
    expect(clock.sleeps[0]).toBeCloseTo(2020, 5); // the pause, then one interval at the halved rate (no burst)
    await b.acquire();
    expect(clock.sleeps[1]).toBeCloseTo(20, 5);
  });

  test("concurrent 429s of one storm halve the rate once and extend the pause", () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket(
      { ratePerSecond: 100, burst: 200, minRatePerSecond: 5, recoveryDoublingMs: NO_RECOVERY },
      clock,
    );
    b.penalize(1000);
    b.penalize(3000);
    b.penalize(500);
    expect(b.currentRate).toBe(50);
    expect(b.reserve().waitMs).toBeCloseTo(3020, 5);
    clock.advance(3000);
    for (let i = 0; i < 10; i++) {
      b.penalize(100);
      clock.advance(100);
    }
    expect(b.currentRate).toBe(5); // floor
  });

  test("waiters that booked before a 429 re-book behind the pause", async () => {
    const clock = new ManualClock();
    const b = new TokenBucket({ ratePerSecond: 10, burst: 1, recoveryDoublingMs: NO_RECOVERY }, clock);
    const done: number[] = [];
    const waiters = [0, 1, 2].map((i) => b.acquire().then(() => done.push(i)));
    await clock.advanceTo(0);
    expect(done).toEqual([0]); // first slot free, others booked at 100 and 200 ms
    b.penalize(1000); // a 429 at t=0: nobody goes before t=1000
    await clock.advanceTo(100);
    await clock.advanceTo(200);
    expect(done).toEqual([0]); // woke, saw the penalty, re-booked
    await clock.advanceTo(1199);
    expect(done).toEqual([0]); // rate halved to 5/s: the first slot is one interval after the pause
    await clock.advanceTo(1200);
    expect(done).toEqual([0, 1]);
    await clock.advanceTo(1399);
    expect(done).toEqual([0, 1]);
    await clock.advanceTo(1400);
    expect(done).toEqual([0, 1, 2]);
    await Promise.all(waiters);
    expect(clock.pending).toBe(0);
  });

  test("a free slot costs one turn of the store, a wait one more after it", async () => {
    // With the machine's store every turn is a lock file made and removed (machinePace.ts).
    const turns: string[] = [];
    const store = new (class extends MemoryPaceStore {
      override update<T>(fresh: () => PaceState, change: (s: PaceState) => T): T {
        turns.push("update");
        return super.update(fresh, change);
      }
      override read(fresh: () => PaceState): PaceState {
        turns.push("read");
        return super.read(fresh);
      }
    })();
    const clock = new ManualClock();
    const b = new TokenBucket({ ratePerSecond: 10, burst: 1, recoveryDoublingMs: NO_RECOVERY }, clock, store);
    turns.length = 0; // the constructor's first read
    await b.acquire();
    expect(turns).toEqual(["update"]);
    turns.length = 0;
    const second = b.acquire(); // the burst is spent: waits 100 ms for its slot
    await clock.advanceTo(100);
    await second;
    expect(turns).toEqual(["update", "read"]);
  });

  test("abort while waiting rejects", async () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 1, burst: 1 }, clock);
    await b.acquire();
    const ac = new AbortController();
    ac.abort(new Error("stop"));
    await expect(b.acquire(ac.signal)).rejects.toThrow("stop");
  });

  test("a 429 to a request sent before the latest cut extends the pause but does not cut again", () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 100, burst: 200, recoveryDoublingMs: NO_RECOVERY }, clock);
    const before = b.reserve().cut; // eight requests in flight under the full pace...
    b.penalize(1000, before); // ...the first 429 cuts
    clock.advance(1500); // the pause is over: these answers were slow, not a second storm
    for (let i = 0; i < 7; i++) b.penalize(1000, before);
    expect(b.currentRate).toBe(50);
    expect(b.snapshot().pausedForMs).toBe(1000); // but the service's wait is honoured
    const after = b.reserve().cut; // a request sent under the cut pace that gets a 429 is news
    b.penalize(1000, after);
    expect(b.currentRate).toBe(25);
  });

  test("sharedBucket returns one bucket per key", () => {
    resetSharedBucketsForTests();
    const a = sharedBucket("https://x|acct1", { ratePerSecond: 1, burst: 1 });
    expect(sharedBucket("https://x|acct1", { ratePerSecond: 5, burst: 5 })).toBe(a);
    expect(sharedBucket("https://x|acct2", { ratePerSecond: 1, burst: 1 })).not.toBe(a);
    resetSharedBucketsForTests();
  });

  test("rejects nonsense configuration", () => {
    expect(() => new TokenBucket({ ratePerSecond: 0, burst: 1 })).toThrow(RangeError);
    expect(() => new TokenBucket({ ratePerSecond: 1, burst: 0 })).toThrow(RangeError);
  });
});

describe("recovery after a 429 storm (fake clock)", () => {
  /** `n` consecutive 429s with Retry-After 1 s, each to the probe sent when the previous pause ended. */
  function storm(b: TokenBucket, clock: FakeClock, n: number): void {
    for (let i = 0; i < n; i++) {
      const sentUnder = b.reserve().cut;
      b.penalize(1000, sentUnder);
      clock.advance(1000);
    }
  }

  test("after 20 consecutive 429s the pace is back to >= 90 % of the limit ~1.6 s after the last pause", () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 97, burst: 195 }, clock);
    storm(b, clock, 20);
    expect(b.currentRate).toBe(1); // the floor: 20 cuts
    expect(b.snapshot().pausedForMs).toBe(0);
    let t = 0;
    while (b.currentRate < 0.9 * 97 && t < 60_000) {
      clock.advance(10);
      t += 10;
    }
    // log2(87.3) doublings of 250 ms = 1.61 s, with no request needed (the old rule climbed +5 % per
    // success, so with no traffic it stayed at the floor)
    expect(t).toBeGreaterThanOrEqual(1600);
    expect(t).toBeLessThanOrEqual(1620);
    clock.advance(100);
    expect(b.currentRate).toBe(97); // and it stops at the ceiling
  });

  test("the pace doubles every recoveryDoublingMs from the end of the pause", () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 80, burst: 10, recoveryDoublingMs: 300 }, clock);
    b.penalize(2000); // 40 rps from t=2000
    expect(b.currentRate).toBe(40);
    clock.advance(2000);
    expect(b.currentRate).toBe(40); // no climb during the pause
    clock.advance(150);
    expect(b.currentRate).toBeCloseTo(40 * Math.SQRT2, 9);
    clock.advance(150);
    expect(b.currentRate).toBeCloseTo(80, 9);
  });

  test("slots follow the rising pace: 50 requests queued at the 1 rps floor all go within ~2 s", async () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 97, burst: 195 }, clock);
    storm(b, clock, 8); // at the floor, pause over
    expect(b.currentRate).toBe(1);
    const waits = Array.from({ length: 50 }, () => b.reserve().waitMs);
    // increasing, and the 50th is nowhere near the 50 s a flat 1 rps would give
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThan(waits[i - 1]!);
    expect(waits[0]).toBeGreaterThan(300); // the first token still takes a while at 1 rps…
    expect(waits[49]).toBeLessThan(2200); // …then the doubling catches up
  });
});

describe("TokenBucket (a timer that fires early)", () => {
  /** Wakes a sleeper `earlyMs` before its time, as Node does when the event loop's time is stale. */
  class EarlyClock extends FakeClock {
    constructor(private readonly earlyMs: number) {
      super(0);
    }
    override async sleep(ms: number): Promise<void> {
      this.sleeps.push(ms);
      this.advance(ms > this.earlyMs ? ms - this.earlyMs : ms); // a short timer is on time
    }
  }

  test("a wake-up before the booked slot sleeps the rest: no request leaves early", async () => {
    const clock = new EarlyClock(30);
    const b = new TokenBucket({ ratePerSecond: 10, burst: 1 }, clock);
    await b.acquire(); // the burst
    await b.acquire(); // booked at 100 ms; the timer fires at 70 ms
    expect(clock.now()).toBeCloseTo(100, 5);
    expect(clock.sleeps).toEqual([100, 30]); // and slept again, for what was left
  });
});
