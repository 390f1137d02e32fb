// The provider's client alone on a busy account, with more demand than the account has left: what
// share of the remaining capacity its pace takes, and what its 429s cost the other traffic. A
// `pulumi up` asks the shared account for only ~2 requests per tenant (the Tenant component creates
// a tenant's objects with the tenant's own key, on the sub account's own limit), so on a slow engine
// it may never press on the limit; this part measures the pacing where it matters. The real client
// (default retry and pacing, as the provider builds it) keeps WORKERS GET /v2/ping in flight for
// SECONDS, after the load generator (bench/loadGenerator.ts, a second key of the same account) has
// run for a while and spent the burst. From the emulator's per-key counters: the client's admitted
// rate ÷ (100 − the other traffic's admitted rate) = its share of what was left; 429s of each.
// Loopback only; bounded (a fixed duration, a generator with a hard stop).
import { performance } from "node:perf_hooks";
import { ApiKeyWithSecret, MessageResponse, paths } from "../provider/api";
import { createClient } from "../provider/client";
import { startEmulator } from "../emulator/server";
import { controlClient } from "../emulator/control";
import { startLoad } from "./loadGenerator";

const LIMIT = 100;
const BURST = 200;
const WORKERS = 16;
const SECONDS = Number(process.env.BENCH_BUSY_CLIENT_SECONDS ?? 20);
const PREROLL_MS = 2_000;

export interface BusyClientRun {
  loadPercent: number;
  seconds: number;
  /** The client's admitted requests per second, and 429s (each one pauses the account's pace). */
  clientPerSecond: number;
  client429: number;
  /** The other traffic over the same window. */
  foreignPerSecond: number;
  foreign429: number;
  /** clientPerSecond ÷ (LIMIT − foreignPerSecond), in %. */
  sharePercent: number;
  errors: number;
}

export async function benchBusyClient(loadPercent: number): Promise<BusyClientRun> {
  const emu = await startEmulator({ port: 0, control: true, rateLimit: { rps: LIMIT, burst: BURST } });
  const control = controlClient(emu);
  try {
    const admin = createClient({
      apiKey: emu.apiKey,
      accountId: emu.accountId,
      baseUrl: emu.baseUrl,
      rateLimit: false,
    });
    const { data: other } = await admin.post(
      paths.apiKeys(emu.accountId),
      { label: "production-traffic", scopes: ["routes:read:all"] },
      ApiKeyWithSecret,
      { idempotencyKey: "bench-busy-client-production-key" },
    );
    const load = startLoad({
      baseUrl: emu.baseUrl,
      apiKey: other.secret_key,
      ratePerSecond: (loadPercent / 100) * LIMIT,
      maxSeconds: SECONDS + 60,
    });
    let errors = 0;
    let elapsed = 0;
    try {
      await new Promise((r) => setTimeout(r, PREROLL_MS));
      await load.drain(); // steady state: no burst left, whatever the other traffic's rate
      // A fresh emulator's base URL: the client gets a pace of its own, unaffected by earlier runs.
      const client = createClient({ apiKey: emu.apiKey, accountId: emu.accountId, baseUrl: emu.baseUrl });
      await control.resetCounters();
      const t0 = performance.now();
      const worker = async () => {
        while (performance.now() - t0 < SECONDS * 1000) {
          await client.get(paths.ping(), MessageResponse).catch(() => errors++);
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, worker));
      elapsed = (performance.now() - t0) / 1000;
    } finally {
      await load.stop();
    }
    const { keys } = await control.counters();
    const foreign = keys[other.id] ?? { admitted: 0, rateLimited: 0 };
    const mine = Object.entries(keys)
      .filter(([id]) => id !== other.id)
      .reduce((t, [, k]) => ({ admitted: t.admitted + k.admitted, rateLimited: t.rateLimited + k.rateLimited }), {
        admitted: 0,
        rateLimited: 0,
      });
    const r1 = (n: number) => Math.round(n * 10) / 10;
    const clientPerSecond = mine.admitted / elapsed;
    const foreignPerSecond = foreign.admitted / elapsed;
    return {
      loadPercent,
      seconds: r1(elapsed),
      clientPerSecond: r1(clientPerSecond),
      client429: mine.rateLimited,
      foreignPerSecond: r1(foreignPerSecond),
      foreign429: foreign.rateLimited,
      sharePercent: r1((100 * clientPerSecond) / Math.max(1, LIMIT - foreignPerSecond)),
      errors,
    };
  } finally {
    await emu.close();
  }
}

export const BUSY_CLIENT_SETUP = { workers: WORKERS, seconds: SECONDS };
