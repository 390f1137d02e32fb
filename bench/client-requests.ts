// How many HTTP requests does the client make for 1 000 sequential creates, with and without injected
// faults — and does it ever create a duplicate? Loopback only, bounded (fixed counts, fixed seed).
//
// Run (from the repo root, Node >= 22.19 on PATH):
//   npx tsc --ignoreConfig --outDir bench/out --rootDir . --module nodenext --moduleResolution nodenext --target es2023 \
//     --strict --skipLibCheck --types node bench/client-requests.ts && node bench/out/bench/client-requests.js
//
// Server: the loopback stub of the client's conformance tests (it supports per-request fault injection
// with the API's idempotency semantics). Faults, each drawn per request with a seeded PRNG:
//   503 before the work, response dropped *after* the work (the retry must replay, not duplicate),
//   connection dropped before the work, 429 without Retry-After.
import { RouteWithSecret, Route, paths } from "../provider/api";
import { closeSharedDispatchers, createClient, type TxmailApiError } from "../provider/client";
import { startStub, type Fault } from "../test/conformance/client/stubServer";

const CREATES = Number(process.env.BENCH_CREATES ?? 1000);
const SEED = 42;

/** mulberry32: tiny deterministic PRNG so runs are comparable. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Scenario {
  name: string;
  faults: { p503: number; pDropAfter: number; pDropBefore: number; p429: number };
}

const scenarios: Scenario[] = [
  { name: "no faults", faults: { p503: 0, pDropAfter: 0, pDropBefore: 0, p429: 0 } },
  {
    name: "10% faults (4% 503, 2% drop-after, 2% drop-before, 2% 429)",
    faults: { p503: 0.04, pDropAfter: 0.02, pDropBefore: 0.02, p429: 0.02 },
  },
  {
    name: "25% faults (10% 503, 5% drop-after, 5% drop-before, 5% 429)",
    faults: { p503: 0.1, pDropAfter: 0.05, pDropBefore: 0.05, p429: 0.05 },
  },
];

async function run(s: Scenario): Promise<Record<string, string | number>> {
  const rnd = prng(SEED);
  const injected: Record<string, number> = { "503": 0, "drop-after": 0, "drop-before": 0, "429": 0 };
  const stub = await startStub({
    chaos: (_n, req): Fault | undefined => {
      if (req.method !== "POST") return undefined;
      const r = rnd();
      const f = s.faults;
      if (r < f.p503) return (injected["503"]!++, { kind: "status", status: 503 });
      if (r < f.p503 + f.pDropAfter) return (injected["drop-after"]!++, { kind: "drop-after" });
      if (r < f.p503 + f.pDropAfter + f.pDropBefore) return (injected["drop-before"]!++, { kind: "drop-before" });
      if (r < f.p503 + f.pDropAfter + f.pDropBefore + f.p429) {
        injected["429"]!++;
        return { kind: "status", status: 429, body: { message: "Too many requests, rate limited." } };
      }
      return undefined;
    },
  });
  const client = createClient({
    apiKey: stub.apiKey,
    accountId: stub.accountId,
    baseUrl: stub.baseUrl,
    // Defaults except a shorter backoff base, to keep the bench quick; pacing stays at 100 rps / 200.
    retry: { baseDelayMs: 50 },
  });
  let failures = 0;
  let replays = 0;
  let maxAttempts = 0;
  const t0 = Date.now();
  for (let i = 0; i < CREATES; i++) {
    if (i % 250 === 0) process.stderr.write(`[bench] ${s.name}: create ${i}\n`);
    try {
      const r = await client.post(
        paths.routes(stub.accountId),
        { name: `route-${i}`, url: "https://hooks.example.com/in", recipient: "" },
        RouteWithSecret,
        { idempotencyKey: `bench-route-${i}` },
      );
      if (r.replayed) replays++;
      maxAttempts = Math.max(maxAttempts, r.attempts);
    } catch (e) {
      failures++;
      console.error(`create ${i} failed: ${(e as TxmailApiError).message}`);
    }
  }
  const createMs = Date.now() - t0;
  process.stderr.write(`[bench] ${s.name}: ${CREATES} creates in ${createMs} ms\n`);
  const createRequests = stub.requests.length;

  const before = stub.requests.length;
  let listed = 0;
  for await (const _ of client.list(paths.routes(stub.accountId), Route)) listed++;
  const listRequests = stub.requests.length - before;

  const records = stub.records.get("routes") ?? [];
  const names = new Set(records.map((r) => r.name));
  await stub.close();
  return {
    scenario: s.name,
    "HTTP requests for 1000 creates": createRequests,
    "extra requests": createRequests - CREATES,
    "faults injected": Object.entries(injected)
      .map(([k, v]) => `${k}:${v}`)
      .join(" "),
    "records created": records.length,
    duplicates: records.length - names.size,
    "errors surfaced": failures,
    "replayed responses": replays,
    "max attempts for one create": maxAttempts,
    "wall time (s)": Math.round(createMs / 100) / 10,
    "requests to list all 1000": listRequests,
    "items listed": listed,
  };
}

async function main(): Promise<void> {
  const rows: Array<Record<string, string | number>> = [];
  for (const s of scenarios) rows.push(await run(s));
  await closeSharedDispatchers();
  for (const r of rows) {
    console.log(`\n## ${r.scenario}`);
    for (const [k, v] of Object.entries(r)) if (k !== "scenario") console.log(`  ${k.padEnd(30)} ${v}`);
  }
  const bad = rows.filter((r) => r.duplicates !== 0 || r["errors surfaced"] !== 0 || r["records created"] !== CREATES);
  process.exitCode = bad.length === 0 ? 0 : 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
