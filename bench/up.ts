// `pulumi up` of N tenants (6 resources each) against the emulator, versus the engine floor: the
// same resource graph made of no-op dynamic resources with every trick the real program uses
// (bench/programs/floor), and, for comparison, the naive floor a user would first write
// (bench/programs/floor-naive). All three are measured in the same run, in a rotating order within
// each round so that the machine's drift falls on each program alike. Also: API calls per phase
// from the emulator's counters (create, no-op up, refresh), and the dynamic-provider process's peak
// memory. Loopback only; every loop bounded. Run with `bash scripts/bench.sh`.
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT, createTestStack, type TestStack, type StackOptions } from "../test/e2e/harness";
import { startService, type TestService } from "../test/e2e/service";
import { controlClient } from "../test/e2e/control";

const ROOT = REPO_ROOT;
const SIZES = (process.env.BENCH_TENANTS ?? "10,50").split(",").map(Number);
/** Rounds per size; each round is a first `up` of a fresh stack of every program. */
const REPS = Number(process.env.BENCH_REPS ?? 5);

export const PROGRAMS = ["floor", "floor-naive", "real"] as const;
export type Program = (typeof PROGRAMS)[number];

export interface UpResult {
  tenants: number;
  resources: number;
  /** Seconds of every round, in round order, per program. */
  runs: Record<Program, number[]>;
  /** The order the programs ran in, per round. */
  orders: Program[][];
  medians: Record<Program, number>;
  /** real ÷ floor and real ÷ naive floor, on the medians. */
  ratio: number;
  naiveRatio: number;
  /** Median over rounds of real ÷ floor within the round: less sensitive to the machine's drift. */
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

export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/** The real program (bench/programs/tenants): N tenants against `svc`, installed as users get the package. */
export function tenantsProgram(svc: TestService, tenants: number): StackOptions {
  return {
    programDir: path.join(ROOT, "bench", "programs", "tenants"),
    config: { ...svc.config(), tenants: { value: String(tenants) } },
    packageLayout: "installed",
  };
}

/** Round r runs the programs starting at a different one each round: floor-first, naive-first, real-first, … */
export function roundOrder(round: number): Program[] {
  return PROGRAMS.map((_, i) => PROGRAMS[(round + i) % PROGRAMS.length]!);
}

async function benchSize(tenants: number): Promise<UpResult> {
  const svc = await startService();
  const control = controlClient(svc);
  const stacks: TestStack[] = [];
  const config = { tenants: { value: String(tenants) } };
  // Every program as users get their packages: installed in node_modules, not linked, so each
  // provider is stored in state as a short require() — except the naive floor, whose point is not to.
  const options: Record<Program, StackOptions> = {
    floor: {
      programDir: path.join(ROOT, "bench", "programs", "floor"),
      config,
      packageLayout: "installed",
      extraPackages: [path.join(ROOT, "bench", "programs", "noop-provider")],
    },
    "floor-naive": { programDir: path.join(ROOT, "bench", "programs", "floor-naive"), config },
    real: tenantsProgram(svc, tenants),
  };
  // Fresh stacks per round: re-creating under the URNs of a destroyed stack would make the service
  // replay the old creations first, which is not a first `up`.
  const fresh = async (program: Program, round: number) => {
    const s = await createTestStack({ ...options[program], name: `${program}${round}` });
    stacks.push(s);
    await s.preview(); // warm-up (disk cache, TypeScript compile caches) outside the timing
    return s;
  };
  try {
    const runs: Record<Program, number[]> = { floor: [], "floor-naive": [], real: [] };
    const orders: Program[][] = [];
    let peakMb = 0;
    let create = await control.counters();
    let last: TestStack | undefined;
    for (let round = 0; round < REPS; round++) {
      const order = roundOrder(round);
      orders.push(order);
      const ready: Array<[Program, TestStack]> = [];
      for (const program of order) ready.push([program, await fresh(program, round)]);
      for (const [program, s] of ready) {
        if (program !== "real") {
          runs[program].push(await timed(() => s.up()));
          continue;
        }
        await control.resetCounters();
        const run = await withPeakRss(() => timed(() => s.up()));
        runs.real.push(run.value);
        peakMb = Math.max(peakMb, run.peakMb);
        if (round === 0) create = await control.counters();
        last = s;
      }
    }
    const medians = {
      floor: median(runs.floor),
      "floor-naive": median(runs["floor-naive"]),
      real: median(runs.real),
    };

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
      runs: {
        floor: runs.floor.map(round2),
        "floor-naive": runs["floor-naive"].map(round2),
        real: runs.real.map(round2),
      },
      orders,
      medians: {
        floor: round2(medians.floor),
        "floor-naive": round2(medians["floor-naive"]),
        real: round2(medians.real),
      },
      ratio: round2(medians.real / medians.floor),
      naiveRatio: round2(medians.real / medians["floor-naive"]),
      pairedRatio: round2(median(runs.real.map((r, i) => r / runs.floor[i]!))),
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

export const round2 = (n: number) => Math.round(n * 100) / 100;
/** The median; for an even count, the mean of the two middle values. */
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

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
