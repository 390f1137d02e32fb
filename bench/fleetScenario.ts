// One fleet of the backend benchmarks (bench/fleetBackends.ts, bench/backendPreview.ts): its own
// emulator, its own backend (a file backend's dir, or a real PostgreSQL server), a committed
// placement of N tenants, and machines that run `txmail-fleet` from the package installed as users
// install it — or, for a floor, with every shard served by a txmail plugin that does nothing.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify } from "yaml";
import { shardStackName } from "../fleet/defaults";
import { controlClient, serviceObjects, type EmulatorControl } from "../support/control";
import { engineEnv } from "../support/engineEnv";
import { runFleet, type FleetRun, BENCH_FLEET_TIMEOUT_MS } from "../support/fleetCli";
import { exportStack, integrity, stateObjectsOf, type Integrity } from "../support/integrity";
import { installPackage } from "../support/package";
import { startPostgres, type PostgresOptions, type PostgresServer } from "../support/postgres";
import { startService, type TestService } from "../support/service";
import { tenantEntry } from "./fleet";

const FLOOR = path.join(__dirname, "fleetFloor.js");

export interface Run {
  what: string;
  seconds: number;
  shards: number;
  /** Resource steps the engine reported (created + updated + replaced + deleted + unchanged). */
  steps: number;
  requests: number;
  writes: number;
  exitCode: number | null;
  /** CPU seconds of the fleet command and every process it started (when asked). */
  cpuSeconds?: number;
  /**
   * CPU seconds of this process meanwhile (when asked): the emulator, which serves the fleet from
   * here — the service's own work, which a real fleet's machine does not do.
   */
  serviceCpuSeconds?: number;
  /**
   * The least time the service's rate limit allows for the requests the emulator admitted (100 per
   * second after a burst of 200, per account: docs/contract/limits.md), over the busiest account.
   */
  limitBoundSeconds: number;
  runners?: Array<{ seconds: number; steps: number }>;
}

/** The service's published limit, per account. */
const LIMIT = { rate: 100, burst: 200 };

function limitBound(keys: Record<string, { accountId: string; admitted: number }>): number {
  const perAccount = new Map<string, number>();
  for (const k of Object.values(keys)) perAccount.set(k.accountId, (perAccount.get(k.accountId) ?? 0) + k.admitted);
  const busiest = Math.max(0, ...perAccount.values());
  return Math.round((Math.max(0, busiest - LIMIT.burst) / LIMIT.rate) * 10) / 10;
}

export const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

let installedCli: string | undefined;
function fleetCli(): string {
  if (!installedCli) {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-bench-backends-pkg-"));
    installedCli = path.join(installPackage(project), "pulumi-txmail", "dist", "fleet", "cli.js");
  }
  return installedCli;
}

/** Removes the installed package (once every scenario is closed). */
export function removeInstalledCli(): void {
  if (installedCli)
    fs.rmSync(path.resolve(installedCli, "..", "..", "..", "..", ".."), { recursive: true, force: true });
  installedCli = undefined;
}

const stepsOf = (r: FleetRun) => {
  const t = r.rows.total;
  return t ? t.created + t.updated + t.replaced + t.deleted + t.unchanged : 0;
};

export interface ScenarioOptions {
  tenants: number;
  postgres: boolean;
  /** Served by the no-op txmail plugin (bench/fleetFloor.ts). */
  floor?: boolean;
  /** Set for every run of the scenario (e.g. an engine setting under test). */
  env?: Record<string, string>;
  postgresOptions?: PostgresOptions;
}

export class Scenario {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-bench-backends-"));
  readonly control: EmulatorControl;
  private baseline = new Set<string>();

  private constructor(
    readonly name: string,
    readonly svc: TestService,
    readonly pg: PostgresServer | undefined,
    readonly opts: ScenarioOptions,
  ) {
    this.control = controlClient(svc);
    fs.mkdirSync(path.join(this.dir, "state")); // the file backend's, shared by the scenario's machines
  }

  static async start(name: string, o: ScenarioOptions): Promise<Scenario> {
    const [svc, pg] = await Promise.all([startService(), o.postgres ? startPostgres(o.postgresOptions) : undefined]);
    const s = new Scenario(name, svc, pg, o);
    s.baseline = new Set(serviceObjects(await s.control.dumpState()).map((x) => x.id));
    s.writeTenants();
    // Placed once, as committed: every run is --frozen.
    const placed = await s.fleet({ dir: s.dir, env: s.machine("placer").env }, ["place"]);
    if (placed.code !== 0) throw new Error(`place: ${placed.stdout}${placed.stderr}`);
    return s;
  }

  /** The file backend's state dir (every machine of the scenario shares it). */
  get stateDir(): string {
    return path.join(this.dir, "state");
  }

  /** The machine that runs `op` as runner `runner` of `runners` (each its own dir and Pulumi home). */
  static runnerName(op: "up" | "preview", runner = 1, runners = 1): string {
    return `${op}-runner-${runner}-of-${runners}`;
  }

  /** A machine's Pulumi home: every process of its runs carries it in its environment. */
  homeOf(machine: string): string {
    return path.join(this.dir, machine, "pulumi-home");
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
        PULUMI_HOME: this.homeOf(name),
        TMPDIR: path.join(dir, "tmp"),
        ...(this.opts.floor ? { NODE_OPTIONS: `--require ${FLOOR}` } : {}),
        ...this.opts.env,
      },
    };
  }

  fleet(m: { dir: string; env: Record<string, string> }, args: string[], cpu = false): Promise<FleetRun> {
    return runFleet(args, {
      timeoutMs: BENCH_FLEET_TIMEOUT_MS,
      cwd: m.dir,
      stateDir: this.stateDir,
      svc: this.svc,
      cli: fleetCli(),
      env: m.env,
      cpu,
    });
  }

  /** Runs of `runners` machines at once (`--runner I/N` each when more than one). */
  async step(
    what: string,
    op: "up" | "preview",
    o: { runners?: number; extra?: string[]; cpu?: boolean } = {},
  ): Promise<Run> {
    const runners = o.runners ?? 1;
    await this.control.resetCounters();
    process.stderr.write(`[bench backends] ${this.name}: ${what}\n`);
    const t0 = Date.now();
    const ownCpu = process.cpuUsage();
    const runs = await Promise.all(
      Array.from({ length: runners }, async (_, i) => {
        const m = this.machine(Scenario.runnerName(op, i + 1, runners));
        if (runners > 1) m.env.TXMAIL_RATE_SHARE = `1/${runners}`;
        const started = Date.now();
        const args = [op, "--frozen", ...(runners > 1 ? ["--runner", `${i + 1}/${runners}`] : []), ...(o.extra ?? [])];
        const r = await this.fleet(m, args, o.cpu);
        if (r.code !== 0)
          process.stderr.write(`[bench backends] ${what} runner ${i + 1}: exit ${r.code}\n${r.stdout}${r.stderr}\n`);
        return { r, seconds: (Date.now() - started) / 1000 };
      }),
    );
    const seconds = (Date.now() - t0) / 1000;
    const own = process.cpuUsage(ownCpu);
    const c = await this.control.counters();
    process.stderr.write(`[bench backends] ${what}: ${seconds.toFixed(1)} s, ${c.total} requests\n`);
    return {
      what,
      seconds: Math.round(seconds * 10) / 10,
      shards: runs.reduce((n, x) => n + Object.keys(x.r.rows).filter((k) => k !== "total").length, 0),
      steps: runs.reduce((n, x) => n + stepsOf(x.r), 0),
      requests: c.total,
      writes: c.writes,
      limitBoundSeconds: limitBound(c.keys),
      exitCode: runs.find((x) => x.r.code !== 0)?.r.code ?? 0,
      ...(o.cpu && {
        cpuSeconds: Math.round(runs.reduce((n, x) => n + (x.r.cpuSeconds ?? 0), 0) * 100) / 100,
        serviceCpuSeconds: Math.round((own.user + own.system) / 1e4) / 100,
      }),
      ...(runners > 1 && {
        runners: runs.map((x) => ({ seconds: Math.round(x.seconds * 10) / 10, steps: stepsOf(x.r) })),
      }),
    };
  }

  /** The committed tenants file; with `changed`, the first tenant's webhook URL changed (no placement change). */
  writeTenants(changed = false): void {
    const tenants = Array.from({ length: this.opts.tenants }, (_, i) =>
      tenantEntry(i, changed && i === 0 ? "hooks-changed" : "hooks"),
    );
    fs.writeFileSync(path.join(this.dir, "tenants.yaml"), stringify({ tenants }));
  }

  /** The shard numbers of the committed placement. */
  shards(): number[] {
    const placement = JSON.parse(fs.readFileSync(path.join(this.dir, "tenants.placement.json"), "utf8")) as {
      shards: number[];
    };
    return placement.shards;
  }

  async integrity(): Promise<Integrity> {
    const env = {
      ...process.env,
      ...engineEnv(this.stateDir),
      ...(this.pg ? { PULUMI_BACKEND_URL: this.pg.url } : {}),
    };
    const state = [];
    for (const s of this.shards()) {
      state.push(...stateObjectsOf(await exportStack(`organization/txmail-fleet/${shardStackName(s)}`, env, this.dir)));
    }
    return integrity(this.control, this.baseline, state);
  }

  async close(): Promise<void> {
    await Promise.all([this.svc.close(), this.pg?.close()]);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
