// 1 000 creates against the emulator with the service's real limit (100 rps, burst 200 per account),
// through the provider's client with the concurrency of a `pulumi up` (the engine runs many resource
// operations at once; all of them share one client per account in the provider process).
//
// Share of the limit used = the fastest time the limit allows for this many requests
// ((N - burst) / rate) divided by the time taken. Goal >= 90 %, and 0 errors surfaced.
// Loopback only; bounded (fixed number of creates). Run through scripts/bench.sh.
import { RouteWithSecret, paths } from "../provider/api";
import { closeSharedDispatchers, createClient } from "../provider/client";
import { startEmulator } from "../emulator/server";
import { controlClient } from "../emulator/control";

const CREATES = Number(process.env.BENCH_CREATES ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const RATE = 100;
const BURST = 200;

export interface RateLimitResult {
  creates: number;
  concurrency: number;
  seconds: number;
  idealSeconds: number;
  sharePercent: number;
  requests: number;
  rejected429: number;
  errors: number;
  recordsCreated: number;
  duplicates: number;
}

export async function benchRateLimit(): Promise<RateLimitResult> {
  const emu = await startEmulator({ port: 0, control: true, rateLimit: { rps: RATE, burst: BURST } });
  const control = controlClient(emu);
  // The provider's client exactly as the provider builds it (default pacing), unless a bench run
  // explores other pacing with BENCH_CLIENT_RATE=rps:burst.
  const pacing = process.env.BENCH_CLIENT_RATE?.split(":").map(Number);
  const client = createClient({
    apiKey: emu.apiKey,
    accountId: emu.accountId,
    baseUrl: emu.baseUrl,
    ...(pacing ? { rateLimit: { ratePerSecond: pacing[0], burst: pacing[1] } } : {}),
  });
  let next = 0;
  let errors = 0;
  let retried429 = 0;
  const t0 = process.hrtime.bigint();
  const worker = async () => {
    while (next < CREATES) {
      const i = next++;
      try {
        const res = await client.post(
          paths.routes(emu.accountId),
          { name: `limit-${i}`, url: "https://hooks.example.com/in", recipient: "" },
          RouteWithSecret,
          { idempotencyKey: `bench-limit-${i}` },
        );
        retried429 += res.retriedAfter.filter((f) => f.category === "rate-limited").length;
      } catch (e) {
        errors++;
        console.error(`create ${i}: ${(e as Error).message}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const counters = await control.counters();
    const requests = counters.endpoints[`POST /v2/accounts/{account_id}/routes`] ?? counters.writes;
    const dump = await control.dumpState();
    const idealSeconds = Math.max(0, CREATES - BURST) / RATE;
    return {
      creates: CREATES,
      concurrency: CONCURRENCY,
      seconds: Math.round(seconds * 100) / 100,
      idealSeconds,
      sharePercent: Math.round((idealSeconds / seconds) * 1000) / 10,
      requests,
      rejected429: retried429,
      errors,
      duplicates: dump.routes.length - new Set(dump.routes.map((r) => r.name)).size,
      recordsCreated: new Set(dump.routes.map((r) => r.name)).size,
    };
  } finally {
    await closeSharedDispatchers();
    await emu.close();
  }
}

if (require.main === module) {
  benchRateLimit().then(
    (r) => console.log(JSON.stringify(r)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
