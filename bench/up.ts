// `pulumi up` of N tenants (6 resources each) against the emulator, versus the engine floor: the
// same resource graph made of no-op dynamic resources with every trick the real program uses
// (bench/programs/floor), and, for comparison, the naive floor a user would first write
// (bench/programs/floor-naive). The same program through the native provider (the txmail plugin,
// `native`) and its own floor (bench/programs/floor-native: no-op custom resources served by the
// plugin's own server code) run beside them. All are measured in the same run, in a rotating order
// within each round so that the machine's drift falls on each program alike. Also: API calls per
// phase from the emulator's counters (create, no-op up, refresh) for each face, and each program's
// provider processes' peak memory. Loopback only; every loop bounded. Run with `bash scripts/bench.sh`.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, TOOLS_DIR } from "../support/root";
import { createTestStack, type TestStack, type StackOptions } from "../support/stack";
import { stackProcesses } from "../support/processes";
import { startService, type TestService } from "../support/service";
import { controlClient } from "../support/control";

const ROOT = REPO_ROOT;
const SIZES = (process.env.BENCH_TENANTS ?? "10,50").split(",").map(Number);
/** Rounds per size; each round is a first `up` of a fresh stack of every program. */
const REPS = Number(process.env.BENCH_REPS ?? 5);

export const PROGRAMS = ["floor", "floor-naive", "real", "floor-native", "native"] as const;
export type Program = (typeof PROGRAMS)[number];
/** The programs that provision tenants at the service (the others are no-op floors). */
export const SERVICE_PROGRAMS = ["real", "native"] as const;
type ServiceProgram = (typeof SERVICE_PROGRAMS)[number];

/** The API calls a program made against the emulator, per phase. */
export interface Calls {
  createWrites: number;
  createReads: number;
  noopCalls: number;
  refreshReads: number;
  refreshWrites: number;
}

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
  /** native ÷ (dynamic) floor on the medians (goal ≤ 1.0 at 50 tenants), and paired. */
  nativeRatio: number;
  nativePairedRatio: number;
  /** native ÷ native floor, on the medians. */
  nativeFloorRatio: number;
  /** API calls of the real program (dynamic face) and of the native one. */
  calls: Record<ServiceProgram, Calls>;
  /**
   * Per program, the peak resident memory (VmHWM) of its provider processes in MiB: the largest
   * over rounds of the sum over the processes serving its resources during one `up`.
   */
  peakProviderRssMb: Record<Program, number>;
}

/** The processes that serve a program's resources: the dynamic-provider plugin, or a native plugin. */
const PROVIDER_PROCESS = /dynamic-provider|(?:^|\/)native\/main\.js(?: |$)|noop-native-provider\/main\.js(?: |$)/;

/** A process's peak resident memory so far (VmHWM) in KiB; 0 once it has exited. */
function peakKb(pid: number): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0; // exited meanwhile; an earlier sample kept its peak
  }
}

/**
 * Samples the peak memory of the stack's provider processes (PROVIDER_PROCESS, found by the stack's
 * own PULUMI_HOME) every 200 ms while `fn` runs; returns the sum of their peaks in MiB. VmHWM is the
 * kernel's own high-water mark, so a sample misses only what a process adds in its last 200 ms.
 */
async function withPeakRss<T>(t: TestStack, fn: () => Promise<T>): Promise<{ value: T; peakMb: number }> {
  const peaks = new Map<number, number>();
  const sample = () => {
    try {
      for (const pid of stackProcesses(t, (args) => PROVIDER_PROCESS.test(args)))
        peaks.set(pid, Math.max(peaks.get(pid) ?? 0, peakKb(pid)));
    } catch {
      // ps can race with exiting processes; the next sample will do
    }
  };
  const timer = setInterval(sample, 200);
  try {
    const value = await fn();
    const totalKb = [...peaks.values()].reduce((a, b) => a + b, 0);
    return { value, peakMb: Math.round(totalKb / 1024) };
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

/** The native floor's plugin (pulumi-resource-txmailfloor) lives here; the engine finds it on PATH. */
const NOOP_NATIVE_PLUGIN_DIR = path.join(ROOT, "bench", "programs", "noop-native-provider");

/** A floor program (bench/programs/<name>), installed with the tenant graph's package and `extra` packages. */
export function floorProgram(
  name: "floor" | "floor-naive" | "floor-native",
  config: StackOptions["config"],
  extra: Pick<StackOptions, "extraPackages" | "env"> = {},
): StackOptions {
  return {
    programDir: path.join(ROOT, "bench", "programs", name),
    config,
    ...extra,
    packageLayout: "installed",
    extraPackages: [path.join(ROOT, "bench", "programs", "floor-tenant"), ...(extra.extraPackages ?? [])],
  };
}

/** How each program's stacks are made: N tenants, the service programs against `svc`. */
export function programOptions(svc: TestService, tenants: number): Record<Program, StackOptions> {
  const config = { tenants: { value: String(tenants) } };
  // Every program as users get their packages: installed in node_modules, not linked, so each
  // provider is stored in state as a short require() — except the naive floor's, an object literal
  // of its program, whose point is to be stored by value. The native programs store no provider code
  // in state, whatever the layout. The floors declare their tenant graph from one package.
  return {
    floor: floorProgram("floor", config, { extraPackages: [path.join(ROOT, "bench", "programs", "noop-provider")] }),
    "floor-naive": floorProgram("floor-naive", config),
    real: tenantsProgram(svc, tenants),
    "floor-native": floorProgram("floor-native", config, {
      env: { PATH: `${NOOP_NATIVE_PLUGIN_DIR}:${path.join(TOOLS_DIR, "bin")}:${process.env.PATH ?? ""}` },
    }),
    native: { ...tenantsProgram(svc, tenants), face: "native" },
  };
}

async function benchSize(tenants: number): Promise<UpResult> {
  const svc = await startService();
  const control = controlClient(svc);
  const stacks: TestStack[] = [];
  const options = programOptions(svc, tenants);
  // Fresh stacks per round: re-creating under the URNs of a destroyed stack would make the service
  // replay the old creations first, which is not a first `up`.
  const fresh = async (program: Program, round: number) => {
    const s = await createTestStack({ ...options[program], name: `${program}${round}` });
    stacks.push(s);
    await s.preview(); // warm-up (disk cache, TypeScript compile caches) outside the timing
    return s;
  };
  const isService = (p: Program): p is ServiceProgram => (SERVICE_PROGRAMS as readonly string[]).includes(p);
  try {
    const runs = Object.fromEntries(PROGRAMS.map((p) => [p, [] as number[]])) as Record<Program, number[]>;
    const peakMb = Object.fromEntries(PROGRAMS.map((p) => [p, 0])) as Record<Program, number>;
    const orders: Program[][] = [];
    const created: Partial<Record<ServiceProgram, { writes: number; reads: number }>> = {};
    const last: Partial<Record<ServiceProgram, TestStack>> = {};
    for (let round = 0; round < REPS; round++) {
      const order = roundOrder(round);
      orders.push(order);
      const ready: Array<[Program, TestStack]> = [];
      for (const program of order) ready.push([program, await fresh(program, round)]);
      for (const [program, s] of ready) {
        if (isService(program)) await control.resetCounters();
        const run = await withPeakRss(s, () => timed(() => s.up()));
        runs[program].push(run.value);
        peakMb[program] = Math.max(peakMb[program], run.peakMb);
        if (isService(program)) {
          if (round === 0) created[program] = await control.counters();
          last[program] = s;
        }
      }
    }
    const medians = Object.fromEntries(PROGRAMS.map((p) => [p, median(runs[p])])) as Record<Program, number>;

    const calls = {} as Record<ServiceProgram, Calls>;
    for (const program of SERVICE_PROGRAMS) {
      const s = last[program]!;
      await control.resetCounters();
      const noop = await s.up();
      if (Object.keys(noop.summary.resourceChanges ?? {}).some((k) => k !== "same")) {
        throw new Error(`${program}: second up was not a no-op: ${JSON.stringify(noop.summary.resourceChanges)}`);
      }
      const noopCounters = await control.counters();
      await control.resetCounters();
      await s.refresh();
      const refresh = await control.counters();
      calls[program] = {
        createWrites: created[program]!.writes,
        createReads: created[program]!.reads,
        noopCalls: noopCounters.writes + noopCounters.reads,
        refreshReads: refresh.reads,
        refreshWrites: refresh.writes,
      };
    }

    const paired = (a: Program, b: Program) => round2(median(runs[a].map((r, i) => r / runs[b][i]!)));
    return {
      tenants,
      resources: tenants * 6,
      runs: Object.fromEntries(PROGRAMS.map((p) => [p, runs[p].map(round2)])) as Record<Program, number[]>,
      orders,
      medians: Object.fromEntries(PROGRAMS.map((p) => [p, round2(medians[p])])) as Record<Program, number>,
      ratio: round2(medians.real / medians.floor),
      naiveRatio: round2(medians.real / medians["floor-naive"]),
      pairedRatio: paired("real", "floor"),
      nativeRatio: round2(medians.native / medians.floor),
      nativePairedRatio: paired("native", "floor"),
      nativeFloorRatio: round2(medians.native / medians["floor-native"]),
      calls,
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
