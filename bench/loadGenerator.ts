// Foreign traffic on the account: what the application sending the tenants' mail does to the limit
// the provider shares (100 rps, burst 200 per account, shared by every key). It offers a fixed rate
// of cheap requests (GET /v2/ping) on a schedule of its own — open loop, like production traffic,
// which does not slow down because a deploy is running — with a bounded number in flight. A 429 is
// counted and the request dropped (production traffic retries on its own schedule; a retry would
// only be more offered load). A due request that finds every slot busy is counted as skipped, so a
// saturated generator is visible instead of silently offering less.
// Loopback only; bounded in time (maxSeconds) and therefore in count (rate × maxSeconds).
import { performance } from "node:perf_hooks";
import { Pool } from "undici";

export interface LoadOptions {
  baseUrl: string;
  /** The key it sends with (a key of the same account as the provider's). Never printed. */
  apiKey: string;
  /** Requests offered per second; 0 sends nothing. */
  ratePerSecond: number;
  maxInFlight?: number;
  /** Hard stop, whatever happens to the caller. */
  maxSeconds?: number;
}

export interface LoadCounts {
  /** Requests sent, and how they ended. */
  sent: number;
  ok: number;
  rateLimited: number;
  /** Anything else: non-2xx other than 429, network errors. */
  failed: number;
  /** Due requests not sent because maxInFlight were outstanding. */
  skipped: number;
  seconds: number;
}

export interface LoadGenerator {
  counts(): LoadCounts;
  /**
   * Spends the account's burst, as a traffic peak would: sends (maxInFlight at a time, at most
   * `maxRequests`) until one is answered 429. Resolves to the number sent.
   */
  drain(maxRequests?: number): Promise<number>;
  /** Stops offering, waits for the requests in flight, closes the connections. */
  stop(): Promise<LoadCounts>;
}

const TICK_MS = 5;

export function startLoad(opts: LoadOptions): LoadGenerator {
  const rate = opts.ratePerSecond;
  const maxInFlight = opts.maxInFlight ?? 32;
  const maxMs = (opts.maxSeconds ?? 900) * 1000;
  if (!(rate >= 0) || !(maxInFlight >= 1)) throw new RangeError("load needs ratePerSecond >= 0 and maxInFlight >= 1");
  const origin = new URL(opts.baseUrl).origin;
  const pool = new Pool(origin, { connections: maxInFlight });
  const headers = { authorization: `Bearer ${opts.apiKey}`, accept: "application/json" };
  const c = { sent: 0, ok: 0, rateLimited: 0, failed: 0, skipped: 0 };
  const pending = new Set<Promise<number>>();
  const t0 = performance.now();
  let offered = 0;
  let stopped = false;

  const sendOne = (): Promise<number> => {
    c.sent++;
    const p = pool
      .request({ method: "GET", path: "/v2/ping", headers })
      .then(async (res) => {
        await res.body.dump();
        if (res.statusCode === 429) c.rateLimited++;
        else if (res.statusCode >= 200 && res.statusCode < 300) c.ok++;
        else c.failed++;
        return res.statusCode;
      })
      .catch(() => {
        c.failed++;
        return 0;
      })
      .finally(() => pending.delete(p));
    pending.add(p);
    return p;
  };

  // Every tick sends what the schedule says is due by now (offered = elapsed × rate), so timer
  // lateness under load delays requests but does not lower the rate offered.
  const tick = () => {
    const elapsed = performance.now() - t0;
    if (elapsed >= maxMs) {
      stopped = true;
      clearInterval(timer);
      return;
    }
    const due = Math.floor((elapsed / 1000) * rate);
    for (; offered < due; offered++) {
      if (pending.size < maxInFlight) void sendOne();
      else c.skipped++;
    }
  };
  const timer = setInterval(tick, TICK_MS);

  const counts = (): LoadCounts => ({ ...c, seconds: (performance.now() - t0) / 1000 });
  return {
    counts,
    async drain(maxRequests = 1000) {
      let n = 0;
      while (n < maxRequests && !stopped) {
        const batch = Math.min(maxInFlight, maxRequests - n);
        n += batch;
        const statuses = await Promise.all(Array.from({ length: batch }, sendOne));
        if (statuses.includes(429)) break;
      }
      return n;
    },
    async stop() {
      if (!stopped) {
        stopped = true;
        clearInterval(timer);
      }
      await Promise.all([...pending]);
      const final = counts();
      await pool.close();
      return final;
    },
  };
}
