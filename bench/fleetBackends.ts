// Fleets on a shared backend (issues 32 and 36), all in one run, each figure also a ratio:
//   - N tenants (1 000 by default) on the file backend, on PostgreSQL (a real server,
//     support/postgres.ts), and on PostgreSQL with two runners at once (`--runner 1/2`, `2/2`,
//     TXMAIL_RATE_SHARE=1/2, each its own work dir, PULUMI_HOME and TMPDIR);
//   - each beside its fleet floor: the same fleet served by a txmail plugin that does nothing
//     (bench/fleetFloor.ts) — goals: fleet ≤ 1.2× its floor; PostgreSQL ≤ 1.1× file;
//   - steps: up, a no-op preview, one tenant's change (`up --tenant`).
// Runs are interleaved (every scenario's up beside its floor's, then every preview, then every
// change), each scenario with its own emulator and backend. Integrity at the end: the service's
// objects against every shard's state (`pulumi stack export`): 0 duplicates, 0 orphans, 0 missing.
// Run: bash scripts/bench.sh fleet-backends (BENCH_FLEET_TENANTS=… for a quicker run). Writes the
// "Shared-backend fleets" section of bench/RESULTS.md.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify } from "yaml";
import { DEFAULT_PARALLEL, DEFAULT_SHARD_SIZE, shardStackName } from "../fleet/defaults";
import { controlClient, serviceObjects, type EmulatorControl } from "../support/control";
import { runFleet, type FleetRun, BENCH_FLEET_TIMEOUT_MS } from "../support/fleetCli";
import { exportStack, integrity, stateObjectsOf, type Integrity } from "../support/integrity";
import { engineEnv } from "../support/engineEnv";
import { installPackage } from "../support/package";
import { startPostgres, type PostgresServer } from "../support/postgres";
import { startService, type TestService } from "../support/service";
import { tenantEntry } from "./fleet";
import { publishSection, runBenchmark } from "./section";

const TENANTS = Number(process.env.BENCH_FLEET_TENANTS ?? 1000);
const FLOOR = path.join(__dirname, "fleetFloor.js");

interface Run {
  what: string;
  seconds: number;
  shards: number;
  /** Resource steps the engine reported (created + updated + replaced + deleted + unchanged). */
  steps: number;
  requests: number;
  writes: number;
  exitCode: number | null;
  runners?: Array<{ seconds: number; steps: number }>;
}

const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

let installedCli: string | undefined;
function fleetCli(): string {
  if (!installedCli) {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-bench-backends-pkg-"));
    installedCli = path.join(installPackage(project), "pulumi-txmail", "dist", "fleet", "cli.js");
  }
  return installedCli;
}

const stepsOf = (r: FleetRun) => {
  const t = r.rows.total;
  return t ? t.created + t.updated + t.replaced + t.deleted + t.unchanged : 0;
};

class Scenario {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-bench-backends-"));
  readonly control: EmulatorControl;
  private baseline = new Set<string>();

  private constructor(
    readonly name: string,
    readonly svc: TestService,
    readonly pg: PostgresServer | undefined,
    readonly floor: boolean,
  ) {
    this.control = controlClient(svc);
    fs.mkdirSync(path.join(this.dir, "state")); // the file backend's, shared by the scenario's machines
  }

  static async start(name: string, o: { postgres: boolean; floor?: boolean }): Promise<Scenario> {
    const [svc, pg] = await Promise.all([startService(), o.postgres ? startPostgres() : undefined]);
    const s = new Scenario(name, svc, pg, o.floor ?? false);
    s.baseline = new Set(serviceObjects(await s.control.dumpState()).map((x) => x.id));
    fs.writeFileSync(
      path.join(s.dir, "tenants.yaml"),
      stringify({ tenants: Array.from({ length: TENANTS }, (_, i) => tenantEntry(i)) }),
    );
    // Placed once, as committed: every run is --frozen.
    const placed = await s.fleet({ dir: s.dir, env: s.machine("placer").env }, ["place"]);
    if (placed.code !== 0) throw new Error(`place: ${placed.stdout}${placed.stderr}`);
    return s;
  }

  /** A runner's machine: the tenants file and the placement, its own PULUMI_HOME and TMPDIR. */
  machine(name: string): { dir: string; env: Record<string, string> } {
    const dir = path.join(this.dir, name);
    fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
    for (const f of ["tenants.yaml", "tenants.placement.json"]) {
      if (fs.existsSync(path.join(this.dir, f))) fs.copyFileSync(path.join(this.dir, f), path.join(dir, f));
    }
    return {
      dir,
      env: {
        ...(this.pg ? { PULUMI_BACKEND_URL: this.pg.url } : {}),
        PULUMI_HOME: path.join(dir, "pulumi-home"),
        TMPDIR: path.join(dir, "tmp"),
        ...(this.floor ? { NODE_OPTIONS: `--require ${FLOOR}` } : {}),
      },
    };
  }

  fleet(m: { dir: string; env: Record<string, string> }, args: string[]): Promise<FleetRun> {
    return runFleet(args, {
      timeoutMs: BENCH_FLEET_TIMEOUT_MS,
      cwd: m.dir,
      // The file backend: one state dir for every machine of the scenario.
      stateDir: path.join(this.dir, "state"),
      svc: this.svc,
      cli: fleetCli(),
      env: m.env,
    });
  }

  /** Runs of `runners` machines at once (`--runner I/N` each when more than one). */
  async step(what: string, op: "up" | "preview", runners = 1, extra: string[] = []): Promise<Run> {
    await this.control.resetCounters();
    process.stderr.write(`[bench backends] ${this.name}: ${what}\n`);
    const t0 = Date.now();
    const runs = await Promise.all(
      Array.from({ length: runners }, async (_, i) => {
        const m = this.machine(`${op}-runner-${i + 1}-of-${runners}`);
        if (runners > 1) m.env.TXMAIL_RATE_SHARE = `1/${runners}`;
        const started = Date.now();
        const r = await this.fleet(m, [
          op,
          "--frozen",
          ...(runners > 1 ? ["--runner", `${i + 1}/${runners}`] : []),
          ...extra,
        ]);
        if (r.code !== 0)
          process.stderr.write(`[bench backends] ${what} runner ${i + 1}: exit ${r.code}\n${r.stdout}${r.stderr}\n`);
        return { r, seconds: (Date.now() - started) / 1000 };
      }),
    );
    const seconds = (Date.now() - t0) / 1000;
    const c = await this.control.counters();
    process.stderr.write(`[bench backends] ${what}: ${seconds.toFixed(1)} s, ${c.total} requests\n`);
    return {
      what,
      seconds: Math.round(seconds * 10) / 10,
      shards: runs.reduce((n, x) => n + Object.keys(x.r.rows).filter((k) => k !== "total").length, 0),
      steps: runs.reduce((n, x) => n + stepsOf(x.r), 0),
      requests: c.total,
      writes: c.writes,
      exitCode: runs.find((x) => x.r.code !== 0)?.r.code ?? 0,
      ...(runners > 1 && {
        runners: runs.map((x) => ({ seconds: Math.round(x.seconds * 10) / 10, steps: stepsOf(x.r) })),
      }),
    };
  }

  /** The committed tenants file with the first tenant's webhook URL changed (no placement change). */
  changeOneTenant(): void {
    const tenants = Array.from({ length: TENANTS }, (_, i) => tenantEntry(i, i === 0 ? "hooks-changed" : "hooks"));
    fs.writeFileSync(path.join(this.dir, "tenants.yaml"), stringify({ tenants }));
  }

  async integrity(): Promise<Integrity> {
    const placement = JSON.parse(fs.readFileSync(path.join(this.dir, "tenants.placement.json"), "utf8")) as {
      shards: number[];
    };
    const env = {
      ...process.env,
      ...engineEnv(path.join(this.dir, "state")),
      ...(this.pg ? { PULUMI_BACKEND_URL: this.pg.url } : {}),
    };
    const state = [];
    for (const s of placement.shards) {
      state.push(...stateObjectsOf(await exportStack(`organization/txmail-fleet/${shardStackName(s)}`, env, this.dir)));
    }
    return integrity(this.control, this.baseline, state);
  }

  async close(): Promise<void> {
    await Promise.all([this.svc.close(), this.pg?.close()]);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

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
      started.push([sc.key, await Scenario.start(sc.label, { postgres: sc.postgres })]);
      started.push([
        `${sc.key}Floor`,
        await Scenario.start(`${sc.label}, floor`, { postgres: sc.postgres, floor: true }),
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
          if (step === "change") s.changeOneTenant();
          runs[`${key} ${step}`] =
            step === "change"
              ? await s.step(what, "up", 1, ["--tenant", tenantEntry(0).name])
              : await s.step(what, step, sc.runners);
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
    if (installedCli)
      fs.rmSync(path.resolve(installedCli, "..", "..", "..", "..", ".."), { recursive: true, force: true });
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
      ? `| ${x.what} | ${x.seconds} | ${base ? `${ratio(x, base)}×` : ""} | ${x.shards} | ${x.steps} | ${rate(x.steps, x.seconds)} | ${x.requests} | ${x.writes} | ${x.exitCode} |`
      : "";
  const runnerRows = (x: Run | undefined) =>
    (x?.runners ?? []).map(
      (p, i) => `| ↳ runner ${i + 1} of 2 | ${p.seconds} | | | ${p.steps} | ${rate(p.steps, p.seconds)} | | | |`,
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
    "",
    "| run | seconds | ÷ floor | shards | steps | steps/s | requests | writes | exit |",
    "|---|---|---|---|---|---|---|---|---|",
    ...STEPS.flatMap((step) => SCENARIOS.flatMap((sc) => pair(sc.key, step))),
    "",
    "Goals:",
    "",
    goal("fleet up, file, ÷ its floor", runs["file up"], runs["fileFloor up"], 1.2),
    goal("fleet no-op preview, file, ÷ its floor", runs["file preview"], runs["fileFloor preview"], 1.2),
    goal("fleet up, PostgreSQL, ÷ its floor", runs["pg up"], runs["pgFloor up"], 1.2),
    goal("fleet no-op preview, PostgreSQL, ÷ its floor", runs["pg preview"], runs["pgFloor preview"], 1.2),
    goal("PostgreSQL up ÷ file up", runs["pg up"], runs["file up"], 1.1),
    goal("PostgreSQL no-op preview ÷ file", runs["pg preview"], runs["file preview"], 1.1),
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
