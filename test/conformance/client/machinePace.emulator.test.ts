// One account, one budget, across processes (issue 19 item 3): separate Node processes — as a fleet's
// shard stacks each run their own provider process — send requests to one account through the
// provider's client, and the emulator, which enforces the account's limit exactly, counts what it
// admitted and refused.
//
// The account here has a fifth of the real limit (20 rps, burst 40) and the workers run with
// TXMAIL_RATE_SHARE=1/5 (19.4 rps, burst 39: the client's usual slack under the limit), so that the
// pace, not this shared 2-core machine's CPU, is what bounds the workers: the proof holds under load.
// Loopback only; every worker sends a fixed number of requests.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { controlClient } from "../../../emulator/control";
import { startEmulator, type RunningEmulator } from "../../../emulator/server";

const ROOT = join(__dirname, "../../..");
const LIMIT = { rps: 20, burst: 40 };
const SHARE = "1/5";
/** Requests in each scenario, all workers together. */
const TOTAL = 120;
/**
 * 429s a correctly paced run may still meet on a loaded machine. The service counts its refill from
 * when it admits the first burst, the client from when it sent it: when the busy emulator takes the
 * burst in 50 ms late, that eats the 1 token of slack between the client's burst (39) and the
 * account's (40) at this scale, and one request is refused and waited out. Observed: one process
 * alone 0 or 1 per run (2026-11-23, load average 10-16; replaying the emulator's request log through
 * its bucket confirms the arrivals, not the pace, ran short).
 */
const SLACK_429S = 2;
/** What the limit allows at best for TOTAL requests: the burst at once, the rest at the rate. */
const IDEAL_MS = ((TOTAL - LIMIT.burst) / LIMIT.rps) * 1000;

let emu: RunningEmulator;
let build: string;
let paceDir: string;

beforeAll(async () => {
  build = transpile();
  emu = await startEmulator({ port: 0, control: true, rateLimit: LIMIT });
}, 60_000);
beforeEach(async () => {
  paceDir = mkdtempSync(join(tmpdir(), "txmail-pace-conf-"));
  // each test starts with the account's bucket full, as the workers' fresh pace assumes
  await new Promise((r) => setTimeout(r, (LIMIT.burst / LIMIT.rps) * 1000 + 500));
});
afterEach(() => rmSync(paceDir, { recursive: true, force: true }));
afterAll(async () => {
  await emu?.close();
  if (build) rmSync(build, { recursive: true, force: true });
});

interface WorkerResult {
  ms: number;
  /** What the client's pace made each of the worker's concurrent lanes wait, on average. */
  waitedPerLaneMs: number;
  rateLimited: number;
  errors: number;
  sharedBy: string;
  ceiling: number;
}

/** Runs `n` worker processes at once, TOTAL / n requests each; resolves to their reports. */
async function runWorkers(n: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<WorkerResult[]> {
  const startAt = Date.now() + 1500; // every process is up and waiting before the first request
  return Promise.all(
    Array.from({ length: n }, () =>
      runWorker({
        TXMAIL_API_KEY: emu.apiKey,
        TXMAIL_ACCOUNT_ID: emu.accountId,
        TXMAIL_BASE_URL: emu.baseUrl,
        TXMAIL_RATE_SHARE: SHARE,
        TXMAIL_PACE_DIR: paceDir,
        REQUESTS: String(TOTAL / n),
        CONCURRENCY: "8",
        START_AT: String(startAt),
        ...extraEnv,
      }),
    ),
  );
}

function runWorker(env: NodeJS.ProcessEnv): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [join(build, "test/conformance/client/paceWorker.js")], {
      env: { PATH: process.env.PATH, NODE_PATH: join(ROOT, "node_modules"), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`worker did not finish within 60 s: ${err}`));
    }, 60_000);
    proc.stdout.on("data", (c: Buffer) => (out += c.toString()));
    proc.stderr.on("data", (c: Buffer) => (err += c.toString()));
    proc.on("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`worker exited ${code}: ${err}`));
      resolve(JSON.parse(out.trim().split("\n").pop()!) as WorkerResult);
    });
  });
}

/** What the emulator's rate limit did with the account's requests since the last reset. */
async function accountCounters(): Promise<{ admitted: number; rateLimited: number }> {
  const keys = Object.values((await controlClient(emu).counters()).keys).filter((k) => k.accountId === emu.accountId);
  return {
    admitted: keys.reduce((n, k) => n + k.admitted, 0),
    rateLimited: keys.reduce((n, k) => n + k.rateLimited, 0),
  };
}

test("two processes on one account together stay within its limit: (almost) no request refused", async () => {
  await controlClient(emu).resetCounters();
  const [a, b] = await runWorkers(2);
  const counted = await accountCounters();
  expect([a!.sharedBy, b!.sharedBy]).toEqual(["machine", "machine"]);
  expect(a!.ceiling).toBeCloseTo(19.4, 5); // TXMAIL_RATE_SHARE=1/5 of 97 rps
  expect(counted.admitted).toBe(TOTAL);
  expect([a!.errors, b!.errors]).toEqual([0, 0]);
  expect(a!.rateLimited + b!.rateLimited).toBe(counted.rateLimited); // the client saw what the service did
  // Each process pacing alone (TXMAIL_PACE_DIR=off) met 15 and 16 here: together they send twice
  // what the account allows. Sharing the pace: 0 in most runs, 1 in some — as one process alone
  // meets (next test), with this machine loaded (load average 10-16): SLACK_429S says why.
  expect(counted.rateLimited).toBeLessThanOrEqual(SLACK_429S);
}, 90_000);

test("one process alone gets the whole rate (the share is not split in advance)", async () => {
  await controlClient(emu).resetCounters();
  const [alone] = await runWorkers(1);
  const counted = await accountCounters();
  expect(counted.admitted).toBe(TOTAL);
  expect(alone!.rateLimited).toBe(counted.rateLimited);
  expect(counted.rateLimited).toBeLessThanOrEqual(SLACK_429S);
  // the full 19.4 rps: ~4.1 s for these requests, never less; half the rate would take twice that.
  // The wall time only bounds it from below: a loaded machine (load average 15) stretches it past
  // 1.5x. What the pace decided does not stretch: the lanes' waits stay under that bound (a CPU-starved
  // worker waits less, its slowness spacing the requests), and would double at half the rate.
  expect(alone!.ms).toBeGreaterThanOrEqual(IDEAL_MS * 0.95);
  expect(alone!.waitedPerLaneMs).toBeLessThan(IDEAL_MS * 1.5);
}, 90_000);

/**
 * provider/ and this test's worker, transpiled to CommonJS in a temporary directory (quick, no type
 * check: `scripts/test.sh` type-checks), so the workers always run the current source, never a stale dist/.
 */
function transpile(): string {
  const ts = require("typescript") as typeof import("typescript");
  const out = mkdtempSync(join(tmpdir(), "txmail-pace-build-"));
  const sources = [...walk(join(ROOT, "provider")), join(__dirname, "paceWorker.ts")];
  for (const f of sources) {
    const js = ts.transpileModule(readFileSync(f, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    }).outputText;
    const dest = join(out, relative(ROOT, f)).replace(/\.ts$/, ".js");
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, js);
  }
  return out;
}

function walk(d: string): string[] {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? walk(join(d, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")
        ? [join(d, e.name)]
        : [],
  );
}
