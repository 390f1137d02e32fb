// Where a 50-tenant `up` spends its time over the floor (issue 49): each program of the checkpoints
// benchmark (the two faces and their floors), in both checkpoint modes, run as a first `up` of a
// fresh stack while the CPU time of every process of the stack is read from /proc, per process kind
// (the engine, the language host, the program, the dynamic-provider host or the plugin), and the
// emulator's (this process's) own. Afterwards, per program: state bytes per resource (the stack's
// export), the engine's gRPC calls per resource (a separate, untimed run with PULUMI_DEBUG_GRPC),
// and the client's time waiting for the account's pace. Rounds rotate the order; medians of all.
// Loopback only; every loop bounded.
// Run: bash scripts/bench.sh profile   (BENCH_TENANTS=50 BENCH_REPS=3 by default)
import * as fs from "node:fs";
import * as path from "node:path";
import { createTestStack, type StackOptions, type TestStack } from "../support/stack";
import { startService } from "../support/service";
import { controlClient } from "../support/control";
import { publishSection, runBenchmark } from "./section";
import { median, programOptions, round2, timed, type Program } from "./up";

const TENANTS = Number(process.env.BENCH_TENANTS ?? 50);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const PROGRAMS: Program[] = ["floor", "real", "floor-native", "native"];
const MODES = ["default", "fast"] as const;
export type Mode = (typeof MODES)[number];
const MODE_ENV: Record<Mode, Record<string, string>> = {
  default: {},
  fast: { PULUMI_SKIP_CHECKPOINTS: "true" },
};
type Pair = `${Mode} ${Program}`;
const PAIRS: Pair[] = MODES.flatMap((m) => PROGRAMS.map((p) => `${m} ${p}` as Pair));
const FLOOR: Record<Program, Program> = {
  floor: "floor",
  real: "floor",
  "floor-native": "floor-native",
  native: "floor-native",
  "floor-naive": "floor-naive",
};

/** The kinds of process a stack's `up` runs, told apart by their command lines. */
export const KINDS = ["engine", "language host", "program", "provider", "other"] as const;
export type Kind = (typeof KINDS)[number];
function kindOf(args: string): Kind {
  if (/dynamic-provider|pulumi-resource-|native\/main\.js|noop-native-provider/.test(args)) return "provider";
  if (/pulumi-language-nodejs/.test(args)) return "language host";
  if (/@pulumi\/pulumi\/cmd\/run|run-pulumi|\/cmd\/run\/index\.js|ts-node|\bnode\b.*\brun\b/.test(args))
    return "program";
  if (/(^|\/)pulumi(\s|$)/.test(args)) return "engine";
  return "other";
}

export const TICKS_PER_SECOND = 100; // clock ticks per second on Linux (USER_HZ)

/**
 * A process's /proc/<pid>/stat fields from the third (its state) on: [1] is its parent, [11] to [14]
 * utime, stime, cutime, cstime in ticks. Throws once the process is gone.
 */
export function statFields(pid: number): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" "); // after the command, which may hold spaces
}

/** utime + stime of a process, in seconds; undefined once it is gone. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = statFields(pid);
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * Reads every 100 ms the CPU time of the processes whose environment names the stack's Pulumi home;
 * a process's last reading stands for its total (it misses at most its last 100 ms).
 */
export function withCpu<T>(
  t: TestStack,
  fn: () => Promise<T>,
): Promise<{ value: T; cpu: Record<Kind, number>; others: string[] }> {
  return withProcessCpu(`PULUMI_HOME=${path.join(t.stateDir, ".pulumi-home")}`, KINDS, kindOf, fn);
}

/**
 * The CPU seconds, per kind, of every process whose environment holds `envEntry` (`NAME=value`)
 * while `fn` runs, read every 100 ms from /proc (a process's last reading stands for its total: it
 * misses at most its last 100 ms); `others` lists the command lines the classifier did not know.
 */
export async function withProcessCpu<T, K extends string>(
  envEntry: string,
  kinds: readonly K[],
  classify: (args: string) => K | "other",
  fn: () => Promise<T>,
): Promise<{ value: T; cpu: Record<K | "other", number>; others: string[] }> {
  const known = new Map<number, K | "other" | null>(); // null: not one of them
  const last = new Map<number, number>();
  const others = new Set<string>();
  const sample = () => {
    for (const name of fs.readdirSync("/proc")) {
      const pid = Number(name);
      if (!pid || pid === process.pid) continue;
      if (!known.has(pid)) {
        try {
          if (!fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(envEntry)) {
            known.set(pid, null);
            continue;
          }
          const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
          const kind = classify(args);
          if (kind === "other") others.add(args.slice(0, 120));
          known.set(pid, kind);
        } catch {
          continue;
        }
      }
      if (known.get(pid) === null) continue;
      const s = cpuSeconds(pid);
      if (s !== undefined) last.set(pid, s);
    }
  };
  const timer = setInterval(sample, 100);
  try {
    const value = await fn();
    sample();
    const cpu = Object.fromEntries([...kinds, "other"].map((k) => [k, 0])) as Record<K | "other", number>;
    for (const [pid, s] of last) cpu[known.get(pid) as K | "other"] += s;
    return { value, cpu, others: [...others] };
  } finally {
    clearInterval(timer);
  }
}

interface Run {
  seconds: number;
  /** Writes the up sent to the service. */
  writes: number;
  cpu: Record<Kind | "emulator", number>;
}

interface Counts {
  stateBytesPerResource: number;
  grpcPerResource: Record<string, number>;
  grpcBytesPerResource: number;
}

interface Result {
  tenants: number;
  runs: Record<Pair, Run[]>;
  counts: Partial<Record<Pair, Counts>>;
  others: string[];
  load: string[];
}

/**
 * A fresh stack of `program` in `mode`, ready for a timed first `up`: previewed once (warm-up outside
 * the timing) and, for a service program in fast mode, past its first run, which saves the stack's
 * salt and creates nothing (provider/core/freshSalt.ts).
 */
export async function readyStack(
  o: StackOptions,
  program: Program,
  mode: Mode,
  name: string,
  env: Record<string, string> = {},
): Promise<TestStack> {
  const s = await createTestStack({ ...o, name, env: { ...o.env, ...MODE_ENV[mode], ...env } });
  await s.preview();
  if (mode === "fast" && (program === "real" || program === "native")) await s.up().catch(() => undefined);
  return s;
}

export const resourcesIn = (exported: string) =>
  (JSON.parse(exported) as { deployment: { resources?: unknown[] } }).deployment.resources?.length ?? 0;

/** gRPC calls (and their bytes) per resource from PULUMI_DEBUG_GRPC's log, by method. */
function grpcCounts(file: string, resources: number): { perMethod: Record<string, number>; bytes: number } {
  const perMethod: Record<string, number> = {};
  let bytes = 0;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    bytes += line.length;
    const method = (JSON.parse(line) as { method: string }).method.replace(/^\/pulumirpc\./, "");
    perMethod[method] = (perMethod[method] ?? 0) + 1;
  }
  for (const m of Object.keys(perMethod)) perMethod[m] = round2(perMethod[m]! / resources);
  return { perMethod, bytes: Math.round(bytes / resources) };
}

async function bench(): Promise<Result> {
  const svc = await startService();
  const control = controlClient(svc);
  const options = programOptions(svc, TENANTS);
  const runs = Object.fromEntries(PAIRS.map((p) => [p, [] as Run[]])) as Record<Pair, Run[]>;
  const counts: Result["counts"] = {};
  const others = new Set<string>();
  const stacks: TestStack[] = [];
  const load = [`before: ${fs.readFileSync("/proc/loadavg", "utf8").trim()}`];
  const stackFor = async (pair: Pair, tag: string, env: Record<string, string> = {}) => {
    const [mode, program] = pair.split(" ") as [Mode, Program];
    const s = await readyStack(options[program], program, mode, `${mode}-${program}${tag}`, env);
    stacks.push(s);
    return s;
  };
  try {
    for (let round = 0; round < REPS; round++) {
      const order = PAIRS.map((_, i) => PAIRS[(round * 3 + i) % PAIRS.length]!);
      for (const pair of order) {
        const s = await stackFor(pair, String(round));
        const writesBefore = (await control.counters()).writes;
        const before = process.cpuUsage();
        const { value: seconds, cpu, others: o } = await withCpu(s, () => timed(() => s.up()));
        const used = process.cpuUsage(before);
        const writes = (await control.counters()).writes - writesBefore;
        o.forEach((x) => others.add(x));
        runs[pair].push({
          seconds: round2(seconds),
          writes,
          cpu: { ...cpu, emulator: (used.user + used.system) / 1e6 },
        });
        process.stderr.write(
          `[bench profile] round ${round + 1} ${pair}: ${seconds.toFixed(1)} s ${JSON.stringify(cpu)}\n`,
        );
        await s.dispose();
      }
      load.push(`after round ${round + 1}: ${fs.readFileSync("/proc/loadavg", "utf8").trim()}`);
    }
    // Counters, untimed: a gRPC log slows the engine.
    for (const pair of PAIRS) {
      const log = path.join(fs.mkdtempSync("/tmp/txmail-grpc-"), "grpc.json");
      const s = await stackFor(pair, "-counts", { PULUMI_DEBUG_GRPC: log });
      fs.rmSync(log, { force: true }); // the warm-up's calls
      await s.up();
      const exported = await s.exportText();
      const resources = resourcesIn(exported);
      const g = grpcCounts(log, resources);
      counts[pair] = {
        stateBytesPerResource: Math.round(exported.length / resources),
        grpcPerResource: g.perMethod,
        grpcBytesPerResource: g.bytes,
      };
      fs.rmSync(path.dirname(log), { recursive: true, force: true });
      await s.dispose();
    }
    return { tenants: TENANTS, runs, counts, others: [...others], load };
  } finally {
    for (const s of stacks) fs.rmSync(s.stateDir, { recursive: true, force: true });
    await svc.close();
  }
}

function section(r: Result, started: Date): string[] {
  const med = (pair: Pair, f: (x: Run) => number) => round2(median(r.runs[pair].map(f)));
  const cols = [...KINDS.filter((k) => k !== "other"), "emulator"] as const;
  const rows = PAIRS.map((pair) => {
    const [mode, program] = pair.split(" ") as [Mode, Program];
    const floor = `${mode} ${FLOOR[program]}` as Pair;
    const secs = med(pair, (x) => x.seconds);
    const over = program === FLOOR[program] ? "" : `${round2(secs - med(floor, (x) => x.seconds))}`;
    const c = r.counts[pair];
    // The service's limit: a burst of 200, then 100 requests per second; no floor pays this.
    const limit = round2(Math.max(0, (med(pair, (x) => x.writes) - 200) / 100));
    return `| ${mode} | ${program} | ${secs} | ${over} | ${program === FLOOR[program] ? "" : limit} | ${cols.map((k) => med(pair, (x) => x.cpu[k])).join(" | ")} | ${c?.stateBytesPerResource ?? ""} | ${
      c
        ? Object.values(c.grpcPerResource)
            .reduce((a, b) => a + b, 0)
            .toFixed(1)
        : ""
    } | ${c?.grpcBytesPerResource ?? ""} |`;
  });
  return [
    "## Where the time goes: a profile of the 50-tenant `up`",
    "",
    `${r.tenants} tenants, first \`up\` of fresh stacks, ${REPS} rounds in rotating order, ${started.toISOString().slice(0, 16).replace("T", " ")} UTC;`,
    "`bash scripts/bench.sh profile` (bench/profile.ts). CPU seconds per process kind, read from /proc during",
    "the `up` (the emulator is the benchmark's own process). State bytes and gRPC calls per resource come from",
    "one more untimed run per program (PULUMI_DEBUG_GRPC).",
    "",
    `| mode | program | wall (s) | over its floor (s) | the service's limit allows no less than (s) | ${cols.map((k) => `${k} CPU (s)`).join(" | ")} | state bytes/resource | gRPC calls/resource | gRPC log bytes/resource |`,
    `|---|---|---|---|---|${cols.map(() => "---").join("|")}|---|---|---|`,
    ...rows,
    "",
    "gRPC calls per resource, by method (those made at least once per ten resources):",
    "",
    ...PAIRS.map(
      (p) =>
        `- ${p}: ${Object.entries(r.counts[p]?.grpcPerResource ?? {})
          .filter(([, n]) => n >= 0.1)
          .map(([m, n]) => `${m} ${n}`)
          .join(", ")}`,
    ),
    "",
    `- load average: ${r.load.join("; ")}`,
    ...(r.others.length ? [`- processes not classified: ${r.others.join("; ")}`] : []),
    "",
  ];
}

async function main(): Promise<void> {
  const started = new Date();
  const result = await bench();
  publishSection(section(result, started), { name: "profile", result });
}

if (require.main === module) runBenchmark(main);
