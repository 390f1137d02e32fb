// The account's limit is shared with another application (the one sending the tenants' mail). In
// virtual time: the service's limiter (emulator/rateLimit.ts: 100 rps, burst 200, Retry-After in
// whole seconds) with its burst already spent, another application offering a fixed rate open loop,
// and the client's real pace (TokenBucket with the default settings) driving 16 requests that always
// have more to send, each 429 handled as the client does (penalize with the Retry-After, wait, go
// again). The client must get at least 80 % of what the other application leaves — the property
// bench/busyAccount.ts measures on real HTTP — without starving it, and with its 429s in storms
// that pause the whole pace rather than one per request.
import type { Clock } from "../../../provider/client/clock";
import { DEFAULT_RATE_LIMIT, TokenBucket } from "../../../provider/client/pace";
import { RateLimiter } from "../../../emulator/rateLimit";

/** Virtual time: sleepers wake in time order when the simulation runs. */
class SimClock implements Clock {
  private t = 0;
  private timers: Array<{ at: number; wake: () => void }> = [];
  now(): number {
    return this.t;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((wake) => this.timers.push({ at: this.t + Math.max(0, ms), wake }));
  }
  /** Runs every timer due before `end`, letting each continuation schedule the next. */
  async runUntil(end: number): Promise<void> {
    for (let guard = 0; guard < 1_000_000; guard++) {
      for (let i = 0; i < 20; i++) await Promise.resolve();
      if (this.timers.length === 0) return;
      const next = Math.min(...this.timers.map((x) => x.at));
      if (next > end) return;
      this.t = next;
      const due = this.timers.filter((x) => x.at <= next);
      this.timers = this.timers.filter((x) => x.at > next);
      due.forEach((x) => x.wake());
    }
    throw new Error("simulation did not finish");
  }
}

const RTT_MS = 3;
const WORKERS = 16;
/** Measured after the first seconds (the client's first burst meets an account with none left). */
const WARMUP_MS = 5_000;
const END_MS = 35_000;

async function simulate(otherRps: number) {
  const clock = new SimClock();
  const limiter = new RateLimiter({ rps: 100, burst: 200 });
  for (let i = 0; i < 200; i++) limiter.take("acct", 0); // a busy account: the burst is spent
  const bucket = new TokenBucket(DEFAULT_RATE_LIMIT, clock);
  const measured = () => clock.now() >= WARMUP_MS && clock.now() < END_MS;
  const client = { ok: 0, rejected: 0 };
  const other = { ok: 0, rejected: 0 };

  const worker = async () => {
    while (clock.now() < END_MS) {
      const sentUnder = await bucket.acquire();
      const wait = limiter.take("acct", clock.now());
      const counted = measured();
      await clock.sleep(RTT_MS);
      if (wait === 0) {
        if (counted) client.ok++;
        continue;
      }
      if (counted) client.rejected++;
      bucket.penalize(wait * 1000, sentUnder);
      await clock.sleep(wait * 1000);
    }
  };
  const otherApp = async () => {
    for (let k = 1; clock.now() < END_MS; k++) {
      await clock.sleep((k * 1000) / otherRps - clock.now());
      const wait = limiter.take("acct", clock.now());
      if (!measured()) continue;
      if (wait === 0) other.ok++;
      else other.rejected++;
    }
  };
  const done = Promise.all([...Array.from({ length: WORKERS }, worker), otherApp()]);
  await clock.runUntil(END_MS + 10_000);
  await done;
  const seconds = (END_MS - WARMUP_MS) / 1000;
  const left = 100 - other.ok / seconds;
  return { seconds, clientRps: client.ok / seconds, otherRps: other.ok / seconds, left, client, other };
}

describe("a busy account: the client's pace takes what the other application leaves", () => {
  test.each([50, 90])(
    "the other application at %i rps: the client gets >= 80 % of the rest, its 429s in a few storms",
    async (otherRps) => {
      const r = await simulate(otherRps);
      expect(r.clientRps).toBeGreaterThanOrEqual(0.8 * r.left);
      // …and not by starving the other application: it keeps >= 90 % of what it offers
      expect(r.otherRps).toBeGreaterThanOrEqual(0.9 * otherRps);
      // a 429 pauses the pace of every request of the account: a few storms, not a 429 per request
      // (measured ~0.5–0.8 per second; without the pause, 16 per second)
      expect(r.client.rejected).toBeLessThanOrEqual(2 * r.seconds);
    },
  );
});
