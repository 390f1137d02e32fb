// 429 storm recovery: how fast the provider's client returns to full pace once a busy account stops
// answering 429. The real client (default retry and pacing, exactly as the provider builds it) keeps
// WORKERS requests in flight against the emulator with the service's real limit (100 rps, burst
// 200); the emulator answers the first STORM of them `429 Retry-After: 1` (fault injection), which
// pauses and cuts the shared pace once per storm window. Measured from the last injected 429:
// - allowed: until the pace the client allows (`client.pace`) is >= 90 % of the limit, not paused;
// - achieved: until the successes in the trailing 500 ms window reach 90 % of the limit.
// Goal: both <= 5 s, 0 errors, no real 429 afterwards (the climb must not overshoot the limit).
// Loopback only; bounded (a fixed storm, then at most FOLLOW_MS of load). Run through scripts/bench.sh,
// or alone: node bench/out/bench/stormRecovery.js [--markdown]
import { performance } from "node:perf_hooks";
import { MessageResponse, paths } from "../provider/api";
import { closeSharedDispatchers, createClient } from "../provider/client";
import { startEmulator } from "../emulator/server";
import { controlClient } from "../emulator/control";

const STORM = Number(process.env.BENCH_STORM_429S ?? 20);
const WORKERS = Number(process.env.BENCH_STORM_WORKERS ?? 8);
const LIMIT = 100;
const BURST = 200;
const TARGET = 0.9 * LIMIT;
/** Load kept up after the last 429, and the hard stop of the whole run. */
const FOLLOW_MS = 8_000;
const MAX_RUN_MS = 120_000;
const WINDOW_MS = 500;
const SAMPLE_MS = 10;

export interface StormRecoveryResult {
  injected429: number;
  workers: number;
  /** First to last injected 429. */
  stormSeconds: number;
  /** The pace the client allowed right after the last 429 (rps). */
  paceAfterStorm: number;
  allowedRecoverySeconds: number | null;
  achievedRecoverySeconds: number | null;
  /** Highest trailing-window rate after the storm (rps). */
  peakAchievedPerSecond: number;
  /** 429s from the emulator's real limiter after the storm (overshoot). */
  real429: number;
  requests: number;
  errors: number;
}

export async function benchStormRecovery(): Promise<StormRecoveryResult> {
  const emu = await startEmulator({ port: 0, control: true, rateLimit: { rps: LIMIT, burst: BURST } });
  const control = controlClient(emu);
  const t429: number[] = [];
  const client = createClient({
    apiKey: emu.apiKey,
    accountId: emu.accountId,
    baseUrl: emu.baseUrl,
    logger: (e) => {
      if (e.status === 429 && e.level === "warn") t429.push(performance.now());
    },
  });
  await control.injectFault({ method: "GET", path: "/v2/ping", kind: "rate-limit", retryAfter: 1, count: STORM });

  const successes: number[] = [];
  const samples: Array<{ at: number; rate: number; paused: boolean }> = [];
  let errors = 0;
  const t0 = performance.now();
  // Stop FOLLOW_MS after the last injected 429, or at the hard limit.
  const done = () => {
    const now = performance.now();
    if (now - t0 > MAX_RUN_MS) return true;
    return t429.length >= STORM && now - t429[STORM - 1]! > FOLLOW_MS;
  };
  const sampler = setInterval(() => {
    const p = client.pace!;
    samples.push({ at: performance.now(), rate: p.ratePerSecond, paused: p.pausedForMs > 0 });
  }, SAMPLE_MS);
  const worker = async () => {
    while (!done()) {
      try {
        await client.get(paths.ping(), MessageResponse);
        successes.push(performance.now());
      } catch (e) {
        errors++;
        console.error(`ping: ${(e as Error).message}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: WORKERS }, worker));
  } finally {
    clearInterval(sampler);
  }
  try {
    const [fault] = await control.faults();
    const counters = await control.counters();
    const lastStorm = t429[STORM - 1];
    if (fault?.fired !== STORM || lastStorm === undefined)
      throw new Error(`the storm did not happen: ${JSON.stringify(fault)}`);
    const after = (t: number) => Math.round(((t - lastStorm) / 1000) * 100) / 100;
    const allowed = samples.find((s) => s.at >= lastStorm && !s.paused && s.rate >= TARGET);
    const windowRates = successes
      .filter((t) => t >= lastStorm)
      .map((t) => ({ at: t, rate: (successes.filter((u) => u > t - WINDOW_MS && u <= t).length * 1000) / WINDOW_MS }));
    const achieved = windowRates.find((w) => w.rate >= TARGET);
    const paceAfter = samples.find((s) => s.at >= lastStorm);
    return {
      injected429: STORM,
      workers: WORKERS,
      stormSeconds: Math.round(((lastStorm - t429[0]!) / 1000) * 100) / 100,
      paceAfterStorm: Math.round((paceAfter?.rate ?? NaN) * 100) / 100,
      allowedRecoverySeconds: allowed ? after(allowed.at) : null,
      achievedRecoverySeconds: achieved ? after(achieved.at) : null,
      peakAchievedPerSecond: Math.max(0, ...windowRates.map((w) => w.rate)),
      real429: t429.length - STORM,
      requests: counters.endpoints["GET /v2/ping"] ?? 0,
      errors,
    };
  } finally {
    await closeSharedDispatchers();
    await emu.close();
  }
}

/** The RESULTS.md section: what this run measured, nothing else. */
export function stormRecoverySection(r: StormRecoveryResult): string[] {
  const s = (v: number | null) => (v === null ? "not reached" : `${v}`);
  const met =
    r.allowedRecoverySeconds !== null &&
    r.achievedRecoverySeconds !== null &&
    r.allowedRecoverySeconds <= 5 &&
    r.achievedRecoverySeconds <= 5 &&
    r.errors === 0 &&
    r.real429 === 0;
  return [
    "## 429 storm recovery",
    "",
    `The provider's client (default retry and pacing) with ${r.workers} requests in flight against the emulator's real limit`,
    `(${LIMIT} rps, burst ${BURST}); the first ${r.injected429} answers are \`429 Retry-After: 1\` (bench/stormRecovery.ts).`,
    `Seconds from the last 429 until the pace is ≥ 90 % of the limit: allowed = \`client.pace\` ≥ ${TARGET} rps and`,
    `not paused; achieved = successes in the trailing ${WINDOW_MS} ms ≥ ${TARGET} rps. Goal ≤ 5 s, 0 errors, no real 429 after.`,
    "",
    "| 429s injected | storm (s) | pace after the storm (rps) | allowed ≥ 90 % after (s) | achieved ≥ 90 % after (s) | peak achieved (rps) | goal | real 429s after | requests | errors |",
    "|---|---|---|---|---|---|---|---|---|---|",
    `| ${r.injected429} | ${r.stormSeconds} | ${r.paceAfterStorm} | ${s(r.allowedRecoverySeconds)} | ${s(r.achievedRecoverySeconds)} | ${r.peakAchievedPerSecond} | ${met ? "met" : "**missed**"} | ${r.real429} | ${r.requests} | ${r.errors} |`,
    "",
  ];
}

if (require.main === module) {
  benchStormRecovery().then(
    (r) => console.log(process.argv.includes("--markdown") ? stormRecoverySection(r).join("\n") : JSON.stringify(r)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
