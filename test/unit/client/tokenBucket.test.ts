import type { Clock } from "../../../provider/client/clock";
import { FakeClock } from "../../../provider/client/clock";
import { TokenBucket, resetSharedBucketsForTests, sharedBucket } from "../../../provider/client/tokenBucket";

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

  test("rate recovery after a 429 does not push earlier slots into the future", async () => {
    // regression: a GCRA formulation whose burst tolerance depended on the current rate stalled for
    // seconds when the rate recovered
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 100, burst: 200 }, clock);
    b.penalize(50);
    for (let i = 0; i < 20; i++) {
      await b.acquire();
      b.onSuccess();
    }
    expect(b.currentRate).toBe(100);
    expect(Math.max(...clock.sleeps)).toBeLessThanOrEqual(70);
    expect(clock.now()).toBeLessThan(50 + 20 * 20);
  });

  test("penalize pauses everyone, drops the burst and halves the rate; successes restore it", async () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 100, burst: 200 }, clock);
    b.penalize(2000);
    expect(b.currentRate).toBe(50);
    await b.acquire();
    expect(clock.sleeps).toEqual([2020]); // the pause, then one interval at the halved rate (no burst)
    await b.acquire();
    expect(clock.sleeps[1]).toBeCloseTo(20, 5);
    for (let i = 0; i < 10; i++) b.onSuccess();
    expect(b.currentRate).toBe(100);
    for (let i = 0; i < 10; i++) b.onSuccess();
    expect(b.currentRate).toBe(100);
  });

  test("concurrent 429s of one storm halve the rate once and extend the pause", () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 100, burst: 200, minRatePerSecond: 5 }, clock);
    b.penalize(1000);
    b.penalize(3000);
    b.penalize(500);
    expect(b.currentRate).toBe(50);
    expect(b.reserve().waitMs).toBe(3020);
    clock.advance(3000);
    for (let i = 0; i < 10; i++) {
      b.penalize(100);
      clock.advance(100);
    }
    expect(b.currentRate).toBe(5); // floor
  });

  test("waiters that booked before a 429 re-book behind the pause", async () => {
    const clock = new ManualClock();
    const b = new TokenBucket({ ratePerSecond: 10, burst: 1 }, clock);
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

  test("abort while waiting rejects", async () => {
    const clock = new FakeClock(0);
    const b = new TokenBucket({ ratePerSecond: 1, burst: 1 }, clock);
    await b.acquire();
    const ac = new AbortController();
    ac.abort(new Error("stop"));
    await expect(b.acquire(ac.signal)).rejects.toThrow("stop");
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
