// Fleets on a shared backend (issue 32 item 4), all in one run, each figure also a ratio:
//   - 1 000 tenants up and a no-op preview on the file backend and on PostgreSQL (a real server,
//     test/e2e/postgres.ts) — goal: PostgreSQL ≤ 1.2× file;
//   - the fleet floor: the same command, settings, placement and shards, each tenant the same number
//     of resources that do nothing (bench/fleetFloor.ts), file backend — goal: fleet ≤ 1.2× floor,
//     up and no-op preview;
//   - two runners (`--runner 1/2`, `--runner 2/2`, TXMAIL_RATE_SHARE=1/2, each its own work dir,
//     PULUMI_HOME and TMPDIR) at once on PostgreSQL vs one runner, with each runner's step rate.
// Runs are interleaved (every scenario's up, then every scenario's preview), each scenario with its
// own emulator and backend. Integrity after each up: the service's objects against every shard's
// state (`pulumi stack export`): 0 duplicates, 0 orphans, 0 missing.
// Run: bash scripts/bench-fleet-backends.sh (BENCH_FLEET_TENANTS=… for a quicker run). Writes the
// "Shared-backend fleets" section of bench/RESULTS.md.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify } from "yaml";
import { DEFAULT_PARALLEL, DEFAULT_SHARD_SIZE, shardStackName } from "../fleet/defaults";
import { controlClient, serviceObjects, type EmulatorControl } from "../test/e2e/control";
import { runFleet, type FleetRun } from "../test/e2e/fleet/fleetCli";
import { exportStack, integrity, stateObjectsOf, type Integrity } from "../test/e2e/fleet/integrity";
import { engineEnv, installPackage, REPO_ROOT } from "../test/e2e/harness";
import { startPostgres, type PostgresServer } from "../test/e2e/postgres";
import { startService, type TestService } from "../test/e2e/service";
import { tenantEntry, writeSection } from "./fleet";

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
      cwd: m.dir,
      // The file backend: one state dir for every machine of the scenario.
      stateDir: path.join(this.dir, "state"),
      svc: this.svc,
      cli: fleetCli(),
      env: m.env,
    });
  }

  /** Runs of `runners` machines at once (`--runner I/N` each when more than one). */
  async step(what: string, op: "up" | "preview", runners = 1): Promise<Run> {
    await this.control.resetCounters();
    process.stderr.write(`[bench backends] ${this.name}: ${what}\n`);
    const t0 = Date.now();
    const runs = await Promise.all(
      Array.from({ length: runners }, async (_, i) => {
        const m = this.machine(`${op}-runner-${i + 1}-of-${runners}`);
        if (runners > 1) m.env.TXMAIL_RATE_SHARE = `1/${runners}`;
        const started = Date.now();
        const r = await this.fleet(m, [op, "--frozen", ...(runners > 1 ? ["--runner", `${i + 1}/${runners}`] : [])]);
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

async function bench(): Promise<Result> {
  const load = [`before: ${uptime()}`];
  const file = await Scenario.start("file", { postgres: false });
  const floor = await Scenario.start("floor", { postgres: false, floor: true });
  const pg = await Scenario.start("postgres", { postgres: true });
  const pg2 = await Scenario.start("postgres, 2 runners", { postgres: true });
  const runs: Record<string, Run> = {};
  const checks: Record<string, Integrity> = {};
  try {
    // Interleaved: every scenario's up, then every scenario's no-op preview.
    runs.fileUp = await file.step(`fleet up, ${TENANTS} tenants, file backend`, "up");
    runs.floorUp = await floor.step(`floor up, ${TENANTS} tenants, file backend`, "up");
    runs.pgUp = await pg.step(`fleet up, ${TENANTS} tenants, PostgreSQL`, "up");
    runs.pg2Up = await pg2.step(`fleet up, ${TENANTS} tenants, PostgreSQL, 2 runners at once`, "up", 2);
    load.push(`after the ups: ${uptime()}`);
    runs.filePreview = await file.step("no-op preview, file backend", "preview");
    runs.floorPreview = await floor.step("floor no-op preview, file backend", "preview");
    runs.pgPreview = await pg.step("no-op preview, PostgreSQL", "preview");
    runs.pg2Preview = await pg2.step("no-op preview, PostgreSQL, 2 runners at once", "preview", 2);
    load.push(`after the previews: ${uptime()}`);
    for (const [name, sc] of [
      ["file", file],
      ["postgres", pg],
      ["postgres, 2 runners", pg2],
    ] as const) {
      try {
        checks[name] = await sc.integrity();
      } catch (e) {
        process.stderr.write(`[bench backends] integrity of ${name}: ${e instanceof Error ? e.message : String(e)}\n`);
      }
    }
  } finally {
    await Promise.all([file.close(), floor.close(), pg.close(), pg2.close()]);
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
  return [
    "## Shared-backend fleets: PostgreSQL vs file, two runners, the fleet floor",
    "",
    `Run on ${started.toISOString().slice(0, 16).replace("T", " ")} UTC with \`bash scripts/bench-fleet-backends.sh\`${envSet.length ? ` (with ${envSet.map(([k, v]) => `${k}=${v}`).join(" ")})` : ""}`,
    `(bench/fleetBackends.ts): ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}, ${TENANTS} tenants,`,
    "one run of each, interleaved: every scenario's up, then every scenario's no-op preview. The machine",
    "was shared with other work — its load during the run:",
    "",
    ...r.load.map((l) => `- ${l}`),
    "",
    `Settings: the command's defaults (native face, shards of ${DEFAULT_SHARD_SIZE}, ${DEFAULT_PARALLEL} at once per runner),`,
    "`--frozen` on a committed placement; each tenant 6 resources (bench/fleet.ts). PostgreSQL 17 is a",
    "real server on loopback (test/e2e/postgres.ts). The floor is the same command, placement, shards",
    "and settings with each tenant's resources swapped for as many that do nothing (`pulumi.Stash`,",
    "served by the engine: no provider process, no service call; bench/fleetFloor.ts). Steps: the",
    "engine's resource steps (created + updated + deleted + unchanged) as the fleet counts them, which",
    "leaves out `pulumi:` types: the floor's are its tenants' components only, not its Stash",
    "resources; requests and writes: the emulator's counters.",
    "",
    "| run | seconds | ratio | shards | steps | steps/s | requests | writes | exit |",
    "|---|---|---|---|---|---|---|---|---|",
    row(runs.floorUp),
    row(runs.fileUp, runs.floorUp),
    row(runs.pgUp, runs.fileUp),
    row(runs.pg2Up, runs.pgUp),
    ...runnerRows(runs.pg2Up),
    row(runs.floorPreview),
    row(runs.filePreview, runs.floorPreview),
    row(runs.pgPreview, runs.filePreview),
    row(runs.pg2Preview, runs.pgPreview),
    ...runnerRows(runs.pg2Preview),
    "",
    "Ratios: the fleet on the file backend against the floor; PostgreSQL against the file backend; two",
    "runners against one, on PostgreSQL.",
    "",
    "Goals:",
    "",
    `- fleet up ≤ 1.2× floor: ${ratio(runs.fileUp, runs.floorUp)}× — ${met(ratio(runs.fileUp, runs.floorUp) <= 1.2)}`,
    `- fleet no-op preview ≤ 1.2× floor: ${ratio(runs.filePreview, runs.floorPreview)}× — ${met(ratio(runs.filePreview, runs.floorPreview) <= 1.2)}`,
    `- PostgreSQL up ≤ 1.2× file: ${ratio(runs.pgUp, runs.fileUp)}× — ${met(ratio(runs.pgUp, runs.fileUp) <= 1.2)}`,
    `- PostgreSQL no-op preview ≤ 1.2× file: ${ratio(runs.pgPreview, runs.filePreview)}× — ${met(ratio(runs.pgPreview, runs.filePreview) <= 1.2)}`,
    "",
    "Integrity after the ups (service objects vs the ids in every shard's state):",
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
  const lines = section(result, started);
  process.stdout.write(`${lines.join("\n")}\n`);
  fs.writeFileSync(path.join(REPO_ROOT, "bench", "out", "fleetBackends.json"), JSON.stringify(result, null, 2));
  writeSection(path.join(REPO_ROOT, "bench", "RESULTS.md"), lines);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
