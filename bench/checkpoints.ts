// State saved after every step (the engine's default) vs once per run (PULUMI_SKIP_CHECKPOINTS), for
// `pulumi up` of N tenants (issue 36): the real programs of both faces beside their floors, every
// program run in both modes with the same engine settings as the program it is compared with. One
// emulator, fresh stacks; rounds rotate the order of the (mode, program) pairs so that the machine's
// drift falls on each alike; medians of all rounds.
//
// A fast-mode stack's first run saves its salt and creates nothing (provider/core/freshSalt.ts): it
// is made before the timing, as the preview warm-up is, and its own time is reported apart. At the
// end, every object at the service is in exactly one real stack's state (0 duplicates, 0 orphans,
// 0 missing). Loopback only; every loop bounded.
// Run: bash scripts/bench.sh checkpoints   (BENCH_TENANTS=50 BENCH_REPS=3 by default)
import * as fs from "node:fs";
import { controlClient, serviceObjects } from "../support/control";
import { createTestStack, type TestStack } from "../support/stack";
import { startService } from "../support/service";
import { byKind, stateObjects } from "../support/stackState";
import { publishSection, runBenchmark } from "./section";
import { median, programOptions, round2, timed, type Program } from "./up";

const TENANTS = Number(process.env.BENCH_TENANTS ?? 50);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const PROGRAMS: Program[] = ["floor", "real", "floor-native", "native"];
const MODES = ["default", "fast"] as const;
type Mode = (typeof MODES)[number];
const ENV: Record<Mode, Record<string, string>> = { default: {}, fast: { PULUMI_SKIP_CHECKPOINTS: "true" } };
const isService = (p: Program) => p === "real" || p === "native";

type Pair = `${Mode} ${Program}`;
const PAIRS: Pair[] = MODES.flatMap((m) => PROGRAMS.map((p) => `${m} ${p}` as Pair));

interface Result {
  tenants: number;
  runs: Record<Pair, number[]>;
  medians: Record<Pair, number>;
  /** Seconds of each fast-mode service stack's first run (salt saved, nothing created). */
  firstRuns: Record<"real" | "native", number[]>;
  integrity: { duplicates: number; orphans: number; missing: number; objects: number };
  load: string[];
}

async function bench(): Promise<Result> {
  const svc = await startService();
  const control = controlClient(svc);
  const baseline = new Set(serviceObjects(await control.dumpState()).map((o) => o.id));
  const options = programOptions(svc, TENANTS);
  const runs = Object.fromEntries(PAIRS.map((p) => [p, [] as number[]])) as Record<Pair, number[]>;
  const firstRuns: Result["firstRuns"] = { real: [], native: [] };
  const stacks: TestStack[] = [];
  const load = [`before: ${fs.readFileSync("/proc/loadavg", "utf8").trim()}`];
  try {
    for (let round = 0; round < REPS; round++) {
      const order = PAIRS.map((_, i) => PAIRS[(round * 3 + i) % PAIRS.length]!);
      for (const pair of order) {
        const [mode, program] = pair.split(" ") as [Mode, Program];
        const o = options[program];
        const s = await createTestStack({ ...o, name: `${mode}-${program}${round}`, env: { ...o.env, ...ENV[mode] } });
        stacks.push(s);
        await s.preview(); // warm-up (disk cache, compile caches) outside the timing
        if (mode === "fast" && isService(program)) {
          const before = (await control.counters()).writes;
          const first = await timed(() => s.up().catch(() => undefined));
          if ((await control.counters()).writes !== before) throw new Error(`${pair}: the first run wrote`);
          firstRuns[program as "real" | "native"].push(round2(first));
        }
        const seconds = await timed(() => s.up());
        runs[pair].push(round2(seconds));
        process.stderr.write(`[bench checkpoints] round ${round + 1} ${pair}: ${seconds.toFixed(1)} s\n`);
      }
      load.push(`after round ${round + 1}: ${fs.readFileSync("/proc/loadavg", "utf8").trim()}`);
    }
    const service = serviceObjects(await control.dumpState()).filter((o) => !baseline.has(o.id));
    const state = (
      await Promise.all(stacks.filter((s) => /-(real|native)\d/.test(s.stack.name)).map(stateObjects))
    ).flat();
    const ids = new Set(state.map((o) => o.id));
    const inService = new Set(service.map((o) => o.id));
    const integrity = {
      duplicates: state.length - ids.size,
      orphans: service.filter((o) => !ids.has(o.id)).length,
      missing: state.filter((o) => !inService.has(o.id)).length,
      objects: service.length,
    };
    const kinds = (xs: Array<{ kind: string; id: string }>) => JSON.stringify(Object.entries(byKind(xs)).sort());
    if (kinds(service) !== kinds(state)) throw new Error("the service's objects by kind differ from the states'");
    const medians = Object.fromEntries(PAIRS.map((p) => [p, round2(median(runs[p]))])) as Record<Pair, number>;
    return { tenants: TENANTS, runs, medians, firstRuns, integrity, load };
  } finally {
    for (const s of stacks) fs.rmSync(s.stateDir, { recursive: true, force: true });
    await svc.close();
  }
}

function section(r: Result, started: Date): string[] {
  const m = r.medians;
  const x = (a: number, b: number) => `${round2(a / b)}×`;
  const row = (mode: Mode, program: Program, floor: Program) =>
    `| ${mode} | ${program} | ${r.runs[`${mode} ${program}`].join(" / ")} | ${m[`${mode} ${program}`]} | ${
      program === floor ? "" : x(m[`${mode} ${program}`], m[`${mode} ${floor}`])
    } | ${mode === "fast" ? x(m[`default ${program}`], m[`fast ${program}`]) : ""} |`;
  const goal = (v: number, limit: number, dir: "≤" | "≥") =>
    `${round2(v)}× (goal ${dir} ${limit}×: ${(dir === "≤" ? v <= limit : v >= limit) ? "met" : "**missed**"})`;
  return [
    "## State saved after every step vs once per run (`PULUMI_SKIP_CHECKPOINTS`)",
    "",
    `${r.tenants} tenants (${r.tenants * 6} resources), first \`pulumi up\` of fresh stacks, ${REPS} rounds in rotating`,
    `order, ${started.toISOString().slice(0, 16).replace("T", " ")} UTC; \`bash scripts/bench.sh checkpoints\``,
    "(bench/checkpoints.ts). Each floor runs in the same mode as the program beside it. A fast-mode",
    "stack's first run (salt saved, nothing created) is made before the timing; its own time is below.",
    "",
    "| mode | program | runs (s) | median (s) | ÷ its floor | default ÷ fast |",
    "|---|---|---|---|---|---|",
    row("default", "floor", "floor"),
    row("default", "real", "floor"),
    row("default", "floor-native", "floor-native"),
    row("default", "native", "floor-native"),
    row("fast", "floor", "floor"),
    row("fast", "real", "floor"),
    row("fast", "floor-native", "floor-native"),
    row("fast", "native", "floor-native"),
    "",
    `- fast dynamic ÷ its floor: ${goal(m["fast real"] / m["fast floor"], 1.1, "≤")}`,
    `- fast native ÷ its floor: ${goal(m["fast native"] / m["fast floor-native"], 1.05, "≤")}`,
    `- default dynamic ÷ its floor: ${goal(m["default real"] / m["default floor"], 1.2, "≤")}`,
    `- default native ÷ its floor: ${goal(m["default native"] / m["default floor-native"], 1.15, "≤")}`,
    `- default ÷ fast, dynamic: ${goal(m["default real"] / m["fast real"], 2.5, "≥")}; native: ${goal(m["default native"] / m["fast native"], 2.5, "≥")}`,
    `- a fast stack's first run (salt saved, nothing created), s: dynamic ${r.firstRuns.real.join(" / ")}, native ${r.firstRuns.native.join(" / ")}`,
    `- integrity over every real stack: ${r.integrity.objects} objects at the service, ${r.integrity.duplicates} duplicates, ${r.integrity.orphans} orphans, ${r.integrity.missing} missing`,
    `- load average: ${r.load.join("; ")}`,
    "",
  ];
}

async function main(): Promise<void> {
  const started = new Date();
  const result = await bench();
  publishSection(section(result, started), { name: "checkpoints", result });
}

if (require.main === module) runBenchmark(main);
