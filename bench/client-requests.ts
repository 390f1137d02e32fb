// How many HTTP requests does the client make for 1 000 sequential creates (routes), with and without
// injected faults — and does it ever create a duplicate? Loopback only, bounded (fixed counts, fixed PRNG seed).
//
// Run (from the repo root, Node >= 22.19 on PATH):
//   npx tsc --ignoreConfig --outDir bench/out --rootDir . --module nodenext --moduleResolution nodenext \
//     --target es2023 --strict --skipLibCheck --types node bench/client-requests.ts \
//     && node bench/out/bench/client-requests.js
// BENCH_CREATES=100 for a quick run.
//
// Server: the emulator (emulator/server.ts), in process, with its default rate limit (100 rps, burst
// 200, like the service). Before each create a seeded PRNG decides whether to inject one fault (via
// the control API, count 1, so it hits the create's first attempt):
//   error-before 503 (nothing executed), drop-before, drop-after (executed, stored: the retry must
//   replay), rate-limit 429 without Retry-After. The last scenario adds error-after (executed, then a
//   5xx: the service releases the key and re-executes on retry — docs/contract/idempotency.md#rule-6) to measure what
//   that costs. Requests are the emulator's own counters.
import { Route, RouteWithSecret, paths } from "../provider/api";
import { closeSharedDispatchers, createClient, type TxmailApiError } from "../provider/client";
import { startEmulator } from "../emulator/server";
import { controlClient } from "../emulator/control";
import type { FaultMode, FaultSpec } from "../emulator/faults";
import { mulberry32 } from "../support/prng";

const CREATES = Number(process.env.BENCH_CREATES ?? 1000);
const SEED = 42;
const ROUTES = "/v2/accounts/{account_id}/routes";

/** The faults this bench injects. */
type Injected = Extract<FaultMode, "error-before" | "drop-before" | "drop-after" | "rate-limit" | "error-after">;
interface Scenario {
  name: string;
  /** Probability per create of each fault kind. */
  p: Partial<Record<Injected, number>>;
}

const scenarios: Scenario[] = [
  { name: "no faults", p: {} },
  {
    name: "10% faults (4% 503-before, 2% drop-before, 2% drop-after, 2% 429)",
    p: { "error-before": 0.04, "drop-before": 0.02, "drop-after": 0.02, "rate-limit": 0.02 },
  },
  {
    name: "25% faults (10% 503-before, 5% drop-before, 5% drop-after, 5% 429)",
    p: { "error-before": 0.1, "drop-before": 0.05, "drop-after": 0.05, "rate-limit": 0.05 },
  },
  {
    name: "10% faults incl. 2% 500-after-commit (idempotency rule 6: re-executed)",
    p: { "error-before": 0.04, "drop-before": 0.02, "drop-after": 0.02, "error-after": 0.02 },
  },
];

function faultFor(kind: Injected): FaultSpec {
  const base = { method: "POST", path: ROUTES, count: 1 };
  if (kind === "error-before") return { ...base, kind, status: 503 };
  if (kind === "error-after") return { ...base, kind, status: 500 };
  if (kind === "rate-limit") return { ...base, kind, retryAfter: null };
  return { ...base, kind };
}

async function run(s: Scenario): Promise<Record<string, string | number>> {
  const rnd = mulberry32(SEED);
  const emu = await startEmulator({ port: 0, control: true });
  const ctl = controlClient(emu);
  const client = createClient({
    apiKey: emu.apiKey,
    accountId: emu.accountId,
    baseUrl: emu.baseUrl,
    // Defaults except a shorter backoff base, to keep the bench quick; pacing stays at 100 rps / 200.
    retry: { baseDelayMs: 50 },
  });
  const injected: Record<string, number> = {};
  let failures = 0;
  let replays = 0;
  let flagged = 0;
  let maxAttempts = 0;
  const t0 = Date.now();
  for (let i = 0; i < CREATES; i++) {
    if (i % 250 === 0) process.stderr.write(`[bench] ${s.name}: create ${i}\n`);
    let r = rnd();
    for (const [kind, p] of Object.entries(s.p) as Array<[Injected, number]>) {
      if (r < p) {
        await ctl.injectFault(faultFor(kind));
        injected[kind] = (injected[kind] ?? 0) + 1;
        break;
      }
      r -= p;
    }
    try {
      const res = await client.post(
        paths.routes(emu.accountId),
        { name: `route-${i}`, url: "https://hooks.example.com/in", recipient: "" },
        RouteWithSecret,
        { idempotencyKey: `bench-route-${i}` },
      );
      if (res.replayed) replays++;
      if (!res.replayed && res.retriedAfter.some((f) => f.category === "server")) flagged++;
      maxAttempts = Math.max(maxAttempts, res.attempts);
    } catch (e) {
      failures++;
      console.error(`create ${i} failed: ${(e as TxmailApiError).message}`);
    }
  }
  const createMs = Date.now() - t0;
  const counters = await ctl.counters();
  const posts = counters.endpoints[`POST ${ROUTES}`] ?? 0;

  await ctl.resetCounters();
  const names: string[] = [];
  for await (const route of client.list(paths.routes(emu.accountId), Route)) names.push(route.name);
  const listRequests = await ctl.requestCount(`GET ${ROUTES}`);
  await emu.close();

  return {
    scenario: s.name,
    "HTTP requests for creates": posts,
    "extra requests": posts - CREATES,
    "faults injected":
      Object.entries(injected)
        .map(([k, v]) => `${k}:${v}`)
        .join(" ") || "none",
    "records created": names.length,
    duplicates: names.length - new Set(names).size,
    "errors surfaced": failures,
    "replayed responses": replays,
    "flagged (retriedAfter server)": flagged,
    "max attempts for one create": maxAttempts,
    "wall time (s)": Math.round(createMs / 100) / 10,
    "requests to list all": listRequests,
  };
}

async function main(): Promise<void> {
  const rows: Array<Record<string, string | number>> = [];
  for (const s of scenarios) rows.push(await run(s));
  await closeSharedDispatchers();
  console.log(`${CREATES} sequential route creates per scenario, emulator on loopback, seed ${SEED}`);
  for (const r of rows) {
    console.log(`\n## ${r.scenario}`);
    for (const [k, v] of Object.entries(r)) if (k !== "scenario") console.log(`  ${k.padEnd(30)} ${v}`);
  }
  // Only error-after may duplicate (by idempotency rule 6); anything else is a client bug.
  const bad = rows.filter(
    (r) => r["errors surfaced"] !== 0 || (r.duplicates !== 0 && !String(r.scenario).includes("after-commit")),
  );
  process.exitCode = bad.length === 0 ? 0 : 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
