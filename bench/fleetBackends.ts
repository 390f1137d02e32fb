// Fleets on a shared backend (issues 32 and 36), all in one run, each figure also a ratio:
//   - N tenants (1 000 by default) on the file backend, on PostgreSQL (a real server,
//     support/postgres.ts), and on PostgreSQL with two runners at once (`--runner 1/2`, `2/2`,
//     TXMAIL_RATE_SHARE=1/2, each its own work dir, PULUMI_HOME and TMPDIR);
//   - each beside its fleet floor: the same fleet served by a txmail plugin that does nothing
//     (bench/fleetFloor.ts) — goals (issue 49): up ≤ 1.15× its floor, no-op preview ≤ 1.10×;
//     PostgreSQL ≤ 1.05× file;
//   - steps: up, a no-op preview, one tenant's change (`up --tenant`).
// Runs are interleaved (every scenario's up beside its floor's, then every preview, then every
// change), each scenario with its own emulator and backend. Integrity at the end: the service's
// objects against every shard's state (`pulumi stack export`): 0 duplicates, 0 orphans, 0 missing.
// Run: bash scripts/bench.sh fleet-backends (BENCH_FLEET_TENANTS=… for a quicker run). Writes the
// "Shared-backend fleets" section of bench/RESULTS.md.
import * as os from "node:os";
import { DEFAULT_PARALLEL, DEFAULT_SHARD_SIZE } from "../fleet/defaults";
import type { Integrity } from "../support/integrity";
import { tenantEntry } from "./fleet";
import { removeInstalledCli, type Run, Scenario, uptime } from "./fleetScenario";
import { publishSection, runBenchmark } from "./section";

const TENANTS = Number(process.env.BENCH_FLEET_TENANTS ?? 1000);

interface Result {
  runs: Record<string, Run>;
  integrity: Record<string, Integrity>;
  load: string[];
}

/** The scenarios, each the real fleet and its floor: the same command on the same backend setup. */
const SCENARIOS = [
  { key: "file", label: "file backend", postgres: false, runners: 1 },
  { key: "pg", label: "PostgreSQL", postgres: true, runners: 1 },
  { key: "pg2", label: "PostgreSQL, 2 runners at once", postgres: true, runners: 2 },
] as const;
type ScenarioKey = (typeof SCENARIOS)[number]["key"];
const STEPS = ["up", "preview", "change"] as const;
type Step = (typeof STEPS)[number];
const STEP_LABEL: Record<Step, string> = {
  up: `up, ${TENANTS} tenants`,
  preview: "no-op preview",
  change: "one tenant's change (up --tenant)",
};

async function bench(): Promise<Result> {
  const load = [`before: ${uptime()}`];
  const started: Array<[string, Scenario]> = [];
  const runs: Record<string, Run> = {};
  const checks: Record<string, Integrity> = {};
  try {
    for (const sc of SCENARIOS) {
      started.push([sc.key, await Scenario.start(sc.label, { tenants: TENANTS, postgres: sc.postgres })]);
      started.push([
        `${sc.key}Floor`,
        await Scenario.start(`${sc.label}, floor`, { tenants: TENANTS, postgres: sc.postgres, floor: true }),
      ]);
    }
    const scenario = (key: string) => started.find(([k]) => k === key)![1];
    // Interleaved: every scenario's up (each beside its floor), then every no-op preview, then
    // every one-tenant change.
    for (const step of STEPS) {
      for (const sc of SCENARIOS) {
        for (const key of [sc.key, `${sc.key}Floor`]) {
          const s = scenario(key);
          const what = `${key.endsWith("Floor") ? "floor" : "fleet"} ${STEP_LABEL[step]}, ${sc.label}`;
          if (step === "change") s.writeTenants(true);
          runs[`${key} ${step}`] =
            step === "change"
              ? await s.step(what, "up", { cpu: true, extra: ["--tenant", tenantEntry(0).name] })
              : await s.step(what, step, { cpu: true, runners: sc.runners });
        }
      }
      load.push(`after the ${step} steps: ${uptime()}`);
    }
    for (const sc of SCENARIOS) {
      try {
        checks[sc.label] = await scenario(sc.key).integrity();
      } catch (e) {
        process.stderr.write(
          `[bench backends] integrity of ${sc.key}: ${e instanceof Error ? e.message : String(e)}\n`,
        );
      }
    }
  } finally {
    await Promise.all(started.map(([, s]) => s.close()));
    removeInstalledCli();
  }
  return { runs, integrity: checks, load };
}

const ratio = (a?: Run, b?: Run) => (a && b ? Math.round((a.seconds / b.seconds) * 100) / 100 : NaN);
const met = (good: boolean) => (good ? "met" : "**missed**");

function section(r: Result, started: Date): string[] {
  const { runs } = r;
  const rate = (steps: number, seconds: number) => Math.round((steps / seconds) * 10) / 10;
  const row = (x: Run | undefined, base?: Run) =>
    x
      ? `| ${x.what} | ${x.seconds} | ${base ? `${ratio(x, base)}×` : ""} | ${x.cpuSeconds ?? ""} | ${x.serviceCpuSeconds ?? ""} | ${x.limitBoundSeconds} | ${x.shards} | ${x.steps} | ${rate(x.steps, x.seconds)} | ${x.requests} | ${x.writes} | ${x.exitCode} |`
      : "";
  const runnerRows = (x: Run | undefined) =>
    (x?.runners ?? []).map(
      (p, i) => `| ↳ runner ${i + 1} of 2 | ${p.seconds} | | | | | | ${p.steps} | ${rate(p.steps, p.seconds)} | | | |`,
    );
  const envSet = Object.entries(process.env).filter(([k]) => k.startsWith("BENCH_FLEET_"));
  const pair = (key: ScenarioKey, step: Step) => [
    row(runs[`${key}Floor ${step}`]),
    row(runs[`${key} ${step}`], runs[`${key}Floor ${step}`]),
    ...runnerRows(runs[`${key} ${step}`]),
  ];
  const goal = (what: string, a: Run | undefined, b: Run | undefined, limit: number) =>
    `- ${what} ≤ ${limit}×: ${ratio(a, b)}× — ${met(ratio(a, b) <= limit)}`;
  return [
    "## Shared-backend fleets: file and PostgreSQL, one runner and two, each beside its fleet floor",
    "",
    `Run on ${started.toISOString().slice(0, 16).replace("T", " ")} UTC with \`bash scripts/bench.sh fleet-backends\`${envSet.length ? ` (with ${envSet.map(([k, v]) => `${k}=${v}`).join(" ")})` : ""}`,
    `(bench/fleetBackends.ts): ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}, ${TENANTS} tenants,`,
    "one run of each, interleaved: every scenario's up beside its floor's, then every no-op preview,",
    "then every one-tenant change. The machine's load during the run:",
    "",
    ...r.load.map((l) => `- ${l}`),
    "",
    `Settings: the command's defaults (native face, shards of ${DEFAULT_SHARD_SIZE}, ${DEFAULT_PARALLEL} at once per runner, state`,
    "written once per run), `--frozen` on a committed placement; each tenant 6 resources (bench/fleet.ts).",
    "PostgreSQL 17 is a real server on loopback (support/postgres.ts). Each floor is the same fleet —",
    "command, placement, shards, shard programs with as many `txmail:index:*` resources, backend, engine",
    "settings — served by a `pulumi-resource-txmail` that does nothing (bench/fleetFloor.ts). Steps:",
    "the engine's resource steps as the fleet counts them; requests and writes: the emulator's counters.",
    "CPU: the fleet command and every process it started (support/cpuOfTree.py); service CPU: the",
    "emulator's, in the benchmark's own process on the same 2 cores — work a real fleet's machine does",
    "not do, and no floor pays. Limit bound: the least time the service's rate limit (100/s after a burst",
    "of 200, per account) allows for the requests of the busiest account — no floor pays it either.",
    "",
    "| run | seconds | ÷ floor | CPU (s) | service CPU (s) | limit bound (s) | shards | steps | steps/s | requests | writes | exit |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...STEPS.flatMap((step) => SCENARIOS.flatMap((sc) => pair(sc.key, step))),
    "",
    "Goals:",
    "",
    goal("fleet up, file, ÷ its floor", runs["file up"], runs["fileFloor up"], 1.15),
    goal("fleet no-op preview, file, ÷ its floor", runs["file preview"], runs["fileFloor preview"], 1.1),
    goal("fleet up, PostgreSQL, ÷ its floor", runs["pg up"], runs["pgFloor up"], 1.15),
    goal("fleet no-op preview, PostgreSQL, ÷ its floor", runs["pg preview"], runs["pgFloor preview"], 1.1),
    goal("PostgreSQL up ÷ file up", runs["pg up"], runs["file up"], 1.05),
    goal("PostgreSQL no-op preview ÷ file", runs["pg preview"], runs["file preview"], 1.05),
    "",
    "Integrity after the last step (service objects vs the ids in every shard's state):",
    "",
    "| scenario | service | in state | duplicates | orphans | missing |",
    "|---|---|---|---|---|---|",
    ...Object.entries(r.integrity).map(
      ([k, i]) => `| ${k} | ${i.serviceObjects} | ${i.stateObjects} | ${i.duplicates} | ${i.orphans} | ${i.missing} |`,
    ),
    "",
  ];
}

async function main(): Promise<void> {
  const started = new Date();
  const result = await bench();
  publishSection(section(result, started), { name: "fleetBackends", result });
}

runBenchmark(main);
