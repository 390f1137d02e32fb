// `pulumi up` of N tenants (6 resources each) against the emulator, versus the engine floor: the
// same resource graph made of no-op dynamic resources, measured in the same run. Also: API calls per
// phase from the emulator's counters (create, no-op up, refresh), and the dynamic-provider process's
// peak memory. Loopback only; every loop bounded. Run with `bash scripts/bench.sh`.
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT, createTestStack, type TestStack } from "../test/e2e/harness";
import { startService } from "../test/e2e/service";
import { controlClient } from "../test/e2e/control";

const ROOT = REPO_ROOT;
const SIZES = (process.env.BENCH_TENANTS ?? "10,50").split(",").map(Number);
/** Alternating floor/real runs per size (each a first `up` of a fresh stack); the median is reported. */
const REPS = Number(process.env.BENCH_REPS ?? 3);

export interface UpResult {
  tenants: number;
  resources: number;
  floorSeconds: number;
  realSeconds: number;
  floorRuns: number[];
  realRuns: number[];
  ratio: number;
  /** Median of real/floor per alternating pair: less sensitive to the machine's speed drifting. */
  pairedRatio: number;
  createWrites: number;
  createReads: number;
  noopCalls: number;
  refreshReads: number;
  refreshWrites: number;
  peakProviderRssMb: number;
}

/** Samples the resident memory of dynamic-provider processes while `fn` runs; returns the peak in MiB. */
async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  let peakKb = 0;
  const sample = () => {
    try {
      const out = execFileSync("ps", ["-eo", "rss=,args="], { encoding: "utf8" });
      for (const line of out.split("\n")) {
        if (!line.includes("dynamic-provider")) continue;
        const kb = Number(line.trim().split(/\s+/)[0]);
        if (kb > peakKb) peakKb = kb;
      }
    } catch {
      // ps can race with exiting processes; the next sample will do
    }
  };
  const timer = setInterval(sample, 200);
  try {
    const value = await fn();
    return { value, peakMb: Math.round(peakKb / 1024) };
  } finally {
    clearInterval(timer);
  }
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

async function benchSize(tenants: number): Promise<UpResult> {
  const svc = await startService();
  const control = controlClient(svc);
  const stacks: TestStack[] = [];
  // A fresh pair of stacks per run: re-creating under the URNs of a destroyed stack would make the
  // service replay the old creations first (a GET and a second POST each), which is not a first `up`.
  const pair = async (rep: number) => {
    const floor = await createTestStack({
      programDir: path.join(ROOT, "bench", "programs", "floor"),
      name: `floor${rep}`,
      config: { tenants: { value: String(tenants) } },
    });
    stacks.push(floor);
    const real = await createTestStack({
      programDir: path.join(ROOT, "bench", "programs", "tenants"),
      name: `real${rep}`,
      config: { ...svc.config(), tenants: { value: String(tenants) } },
      // As users get it (`npm install pulumi-txmail`), not linked to the checkout: the layout in
      // which each provider is stored in state as a short require (provider/kinds/lazyProvider.ts).
      packageLayout: "installed",
    });
    stacks.push(real);
    // Warm-up (disk cache, TypeScript compile caches) outside the timing.
    await floor.preview();
    await real.preview();
    return { floor, real };
  };
  try {
    const floorRuns: number[] = [];
    const realRuns: number[] = [];
    let peakMb = 0;
    let create = await control.counters();
    let last: TestStack | undefined;
    for (let rep = 0; rep < REPS; rep++) {
      const { floor, real } = await pair(rep);
      floorRuns.push(await timed(() => floor.up()));
      await control.resetCounters();
      const run = await withPeakRss(() => timed(() => real.up()));
      realRuns.push(run.value);
      peakMb = Math.max(peakMb, run.peakMb);
      if (rep === 0) create = await control.counters();
      last = real;
    }
    const floorSeconds = median(floorRuns);
    const realSeconds = median(realRuns);

    await control.resetCounters();
    const noop = await last!.up();
    if (Object.keys(noop.summary.resourceChanges ?? {}).some((k) => k !== "same")) {
      throw new Error(`second up was not a no-op: ${JSON.stringify(noop.summary.resourceChanges)}`);
    }
    const noopCounters = await control.counters();

    await control.resetCounters();
    await last!.refresh();
    const refresh = await control.counters();

    return {
      tenants,
      resources: tenants * 6,
      floorSeconds: round(floorSeconds),
      realSeconds: round(realSeconds),
      floorRuns: floorRuns.map(round),
      realRuns: realRuns.map(round),
      ratio: round(realSeconds / floorSeconds),
      pairedRatio: round(median(realRuns.map((r, i) => r / floorRuns[i]!))),
      createWrites: create.writes,
      createReads: create.reads,
      noopCalls: noopCounters.writes + noopCounters.reads,
      refreshReads: refresh.reads,
      refreshWrites: refresh.writes,
      peakProviderRssMb: peakMb,
    };
  } finally {
    for (const t of stacks.reverse()) await t.dispose();
    await svc.close();
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchUp(): Promise<UpResult[]> {
  const results: UpResult[] = [];
  for (const n of SIZES) results.push(await benchSize(n));
  return results;
}

if (require.main === module) {
  benchUp().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
