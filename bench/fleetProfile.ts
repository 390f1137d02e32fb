// Where a fleet's `up` spends its CPU over its floor's (issue 49). N tenants (120 by default: two
// shards of 60, run at once, as each pair of a 1 000-tenant fleet's shards runs) brought up as the
// real fleet and as its floor (the same fleet served by a txmail plugin that does nothing,
// bench/fleetFloor.ts), each a fresh fleet on the file backend in every round, rounds alternating
// which goes first. Per run: wall time; the CPU of the whole process tree (support/cpuOfTree.py);
// the CPU per kind of process, read from /proc every 100 ms (the fleet command; its workers, which
// run the shard programs inline; the engine; the txmail plugin); and this process's own, which is
// the emulator's work plus the sampling's. Medians of all rounds.
// Run: bash scripts/bench.sh fleet-profile (BENCH_TENANTS, BENCH_REPS). Writes the "Where a fleet's
// up spends its CPU" section of bench/RESULTS.md.
import * as os from "node:os";
import { type Run, Scenario, removeInstalledCli, uptime } from "./fleetScenario";
import { withProcessCpu } from "./profile";
import { publishSection, runBenchmark } from "./section";
import { median, round2 } from "./up";

const TENANTS = Number(process.env.BENCH_TENANTS ?? 120);
const REPS = Number(process.env.BENCH_REPS ?? 3);

const KINDS = ["fleet command", "workers (programs)", "engine", "plugin"] as const;
type Kind = (typeof KINDS)[number];
function kindOf(args: string): Kind | "other" {
  if (/fleet[\\/]worker\.js/.test(args)) return "workers (programs)";
  if (/fleet[\\/]cli\.js/.test(args)) return "fleet command";
  if (/pulumi-resource-txmail|native[\\/]main\.js|noop-native-provider/.test(args)) return "plugin";
  if (/(^|\/)pulumi(\s|$)/.test(args)) return "engine";
  return "other";
}

type Side = "floor" | "fleet";
interface Measured {
  run: Run;
  cpu: Record<Kind | "other", number>;
  /** This process: the emulator serving the fleet, and the sampling of /proc. */
  ownCpu: number;
}

async function upOnce(side: Side): Promise<{ measured: Measured; others: string[] }> {
  const s = await Scenario.start(`${side}, ${TENANTS} tenants`, {
    tenants: TENANTS,
    postgres: false,
    floor: side === "floor",
  });
  try {
    const home = s.homeOf(Scenario.runnerName("up"));
    const own = process.cpuUsage();
    const {
      value: run,
      cpu,
      others,
    } = await withProcessCpu(`PULUMI_HOME=${home}`, KINDS, kindOf, () => s.step(`${side} up`, "up", { cpu: true }));
    const used = process.cpuUsage(own);
    if (run.exitCode !== 0) throw new Error(`${side} up failed (exit ${run.exitCode})`);
    return { measured: { run, cpu, ownCpu: (used.user + used.system) / 1e6 }, others };
  } finally {
    await s.close();
  }
}

interface Result {
  runs: Record<Side, Measured[]>;
  others: string[];
  load: string[];
}

async function bench(): Promise<Result> {
  const runs: Record<Side, Measured[]> = { floor: [], fleet: [] };
  const others = new Set<string>();
  const load = [`before: ${uptime()}`];
  try {
    for (let round = 0; round < REPS; round++) {
      const order: Side[] = round % 2 === 0 ? ["floor", "fleet"] : ["fleet", "floor"];
      for (const side of order) {
        const { measured, others: o } = await upOnce(side);
        runs[side].push(measured);
        o.forEach((x) => others.add(x));
      }
      load.push(`after round ${round + 1}: ${uptime()}`);
    }
  } finally {
    removeInstalledCli();
  }
  return { runs, others: [...others], load };
}

function section(r: Result, started: Date): string[] {
  const med = (side: Side, f: (m: Measured) => number) => round2(median(r.runs[side].map(f)));
  const row = (what: string, f: (m: Measured) => number) => {
    const [floor, fleet] = [med("floor", f), med("fleet", f)];
    return `| ${what} | ${floor} | ${fleet} | ${round2(fleet - floor)} |`;
  };
  const writes = median(r.runs.fleet.map((m) => m.run.writes));
  return [
    "## Where a fleet's up spends its CPU over its floor's (issue 49)",
    "",
    `Run on ${started.toISOString().slice(0, 16).replace("T", " ")} UTC with \`bash scripts/bench.sh fleet-profile\``,
    `(bench/fleetProfile.ts): ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}, ${TENANTS} tenants`,
    `(shards of 60, 2 at once, file backend), the fleet and its floor each brought up fresh in ${REPS} rounds,`,
    "alternating which goes first; medians of all rounds. Load:",
    "",
    ...r.load.map((l) => `- ${l}`),
    "",
    `Runs (s): floor ${r.runs.floor.map((m) => m.run.seconds).join(" / ")}; fleet ${r.runs.fleet.map((m) => m.run.seconds).join(" / ")}.`,
    `The fleet's ${writes} writes per run, at the service's 100 per second after a burst of 200 per`,
    `account, allow no less than ${median(r.runs.fleet.map((m) => m.run.limitBoundSeconds))} s for its busiest account (no floor pays it).`,
    "",
    "| what | floor | fleet | fleet − floor |",
    "|---|---|---|---|",
    row("wall (s)", (m) => m.run.seconds),
    row("CPU of the whole tree, exact (s)", (m) => m.run.cpuSeconds ?? 0),
    ...[...KINDS, "other" as const].map((k) => row(`CPU: ${k} (s)`, (m) => m.cpu[k])),
    row("CPU: the emulator and the sampling, this process (s)", (m) => m.ownCpu),
    "",
    ...(r.others.length ? [`Other processes: ${r.others.map((o) => `\`${o}\``).join(", ")}.`, ""] : []),
  ];
}

async function main(): Promise<void> {
  const started = new Date();
  const result = await bench();
  publishSection(section(result, started), { name: "fleetProfile", result });
}

runBenchmark(main);
