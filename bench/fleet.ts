// Fleets (issue 19 item 5): the same tenants as one stack vs as the fleet's shard stacks, and the
// fleet at 1 000 tenants (6 000 resources), all through `txmail-fleet` (dist/fleet/cli.js) against the
// emulator, in one run:
//   - 200 tenants as one stack (`--shard-size 200`: the same inline program, one shard) and as the
//     fleet (default shard size and parallelism), each on a fresh emulator and backend;
//   - 1 000 tenants: `up` (goal ≤ 5 min), a no-op `preview` (goal ≤ 60 s), and one tenant's change
//     applied with `up --tenant` (goal ≤ 30 s).
// After every `up`: 0 duplicates and 0 orphans, checked by comparing the service's objects (emulator
// state) with the ids every shard's checkpoint records; request counts from the emulator's counters,
// 429s from its per-key rate-limit counters. Loopback only; every run bounded by the fleet's own end.
// The command runs from the package installed as users install it (node_modules/pulumi-txmail, a
// copy of dist/): the layout decides how the dynamic provider is stored in every resource's state
// (a short `require` from under node_modules, its methods' source from a checkout), and so the size
// of the checkpoint the engine rewrites after every step.
// Run: bash scripts/bench.sh fleet (BENCH_FLEET_* narrow it; see below). Writes the "Fleets" section
// of bench/RESULTS.md.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify } from "yaml";
import { controlClient, serviceObjects, type EmulatorControl } from "../support/control";
import { installPackage } from "../support/package";
import { publishSection, runBenchmark } from "./section";
import { startService, type TestService } from "../support/service";
import { runFleet, type FleetRun, type SummaryRow, BENCH_FLEET_TIMEOUT_MS } from "../support/fleetCli";
import { DEFAULT_PARALLEL, DEFAULT_PROJECT, DEFAULT_SHARD_SIZE } from "../fleet/defaults";

/** Tenants of the one-stack vs fleet comparison. */
const COMPARE = Number(process.env.BENCH_FLEET_COMPARE ?? 200);
/** Tenants of the big fleet. */
const BIG = Number(process.env.BENCH_FLEET_TENANTS ?? 1000);
/** Fleet settings under test (the command's defaults unless set). */
const SHARD_SIZE = process.env.BENCH_FLEET_SHARD_SIZE;
const PARALLEL = process.env.BENCH_FLEET_PARALLEL;
/** Set to "0" to skip the one-stack run (it is the slowest part). */
const WITH_ONE_STACK = process.env.BENCH_FLEET_ONE_STACK !== "0";

const KINDS = new Set(["SubAccount", "SubAccountApiKey", "ApiKey", "Domain", "Route", "Webhook", "SmtpCredential"]);

/** A tenant as bench/programs/tenants declares it: 6 resources (and the Tenant component). */
export function tenantEntry(i: number, hookPath = "hooks") {
  const t = `tenant-${String(i).padStart(4, "0")}`;
  return {
    name: t,
    website: `${t}.example.com`,
    bootstrapKey: { ipAllowList: ["127.0.0.1"] },
    domain: `mail.${t}.example.com`,
    routes: { support: { url: "https://example.com/in", recipient: `support@mail.${t}.example.com` } },
    webhooks: { events: { url: `https://example.com/${hookPath}`, events: ["bounced"] } },
    smtpCredentials: { app: {} },
  };
}

/**
 * A bench's txmail-fleet against `svc`: a working folder (`dir`, its file backend in state/) and
 * the command of the package installed as a user installs it (in `project`); the caller removes both.
 */
export function fleetUnderBench(svc: TestService, name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `txmail-bench-${name}-`));
  const project = fs.mkdtempSync(path.join(os.tmpdir(), `txmail-bench-${name}-pkg-`));
  const cli = path.join(installPackage(project), "pulumi-txmail", "dist", "fleet", "cli.js");
  const fleet = (args: string[], env?: Record<string, string>): Promise<FleetRun> =>
    runFleet(args, {
      timeoutMs: BENCH_FLEET_TIMEOUT_MS,
      cwd: dir,
      stateDir: path.join(dir, "state"),
      svc,
      cli,
      env,
    });
  return { dir, project, fleet };
}

export interface Step {
  what: string;
  seconds: number;
  shards: number;
  created: number;
  updated: number;
  deleted: number;
  unchanged: number;
  failed: number;
  requests: number;
  writes: number;
  rateLimited: number;
  exitCode: number | null;
}

export interface Integrity {
  serviceObjects: number;
  stateObjects: number;
  expected: number;
  duplicates: number;
  orphans: number;
  missing: number;
}

export interface FleetScenario {
  tenants: number;
  steps: Step[];
  integrity: Integrity[];
}

export interface FleetBenchResult {
  compare: { oneStack?: FleetScenario; fleet: FleetScenario };
  big: FleetScenario;
  settings: { shardSize: number; parallel: number };
  load: string[];
}

const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

/** `txmail-fleet` of a package installed once per benchmark run, as `npx txmail-fleet` finds it. */
let installedCli: string | undefined;
function fleetCli(): string {
  if (!installedCli) {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-bench-fleet-pkg-"));
    const modules = installPackage(project);
    installedCli = path.join(modules, "pulumi-txmail", "dist", "fleet", "cli.js");
  }
  return installedCli;
}

class Env {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-bench-fleet-"));
  readonly stateDir = path.join(this.dir, "state");
  readonly tenantsFile = path.join(this.dir, "tenants.yaml");
  readonly control: EmulatorControl;
  private baseline = new Set<string>();

  private constructor(readonly svc: TestService) {
    fs.mkdirSync(this.stateDir);
    this.control = controlClient(svc);
  }

  static async start(): Promise<Env> {
    const env = new Env(await startService());
    env.baseline = new Set(serviceObjects(await env.control.dumpState()).map((o) => o.id));
    return env;
  }

  writeTenants(n: number, changed?: { index: number; hookPath: string }): void {
    const tenants = Array.from({ length: n }, (_, i) =>
      tenantEntry(i, changed && changed.index === i ? changed.hookPath : undefined),
    );
    fs.writeFileSync(this.tenantsFile, stringify({ tenants }));
  }

  /** One fleet command, timed, with the emulator's counters for it. */
  async step(what: string, args: string[]): Promise<Step> {
    await this.control.resetCounters();
    process.stderr.write(`[bench fleet] ${what}: txmail-fleet ${args.join(" ")}\n`);
    const t0 = process.hrtime.bigint();
    const run: FleetRun = await runFleet(args, {
      timeoutMs: BENCH_FLEET_TIMEOUT_MS,
      cwd: this.dir,
      stateDir: this.stateDir,
      svc: this.svc,
      cli: fleetCli(),
    });
    const seconds = Math.round(Number(process.hrtime.bigint() - t0) / 1e7) / 100;
    const c = await this.control.counters();
    const total: SummaryRow | undefined = run.rows.total;
    if (run.code !== 0)
      process.stderr.write(`[bench fleet] ${what} exited ${run.code}:\n${run.stdout}\n${run.stderr}\n`);
    return {
      what,
      seconds,
      shards: Object.keys(run.rows).filter((k) => k !== "total").length,
      created: total?.created ?? 0,
      updated: total?.updated ?? 0,
      deleted: total?.deleted ?? 0,
      unchanged: total?.unchanged ?? 0,
      failed: total?.failed ?? 0,
      requests: c.total,
      writes: c.writes,
      rateLimited: Object.values(c.keys).reduce((n, k) => n + k.rateLimited, 0),
      exitCode: run.code,
    };
  }

  /** The service's objects against every shard checkpoint's ids: duplicates, orphans, missing. */
  async integrity(tenants: number): Promise<Integrity> {
    const service = serviceObjects(await this.control.dumpState()).filter((o) => !this.baseline.has(o.id));
    const state = this.stateObjects();
    const key = (o: { kind: string; id: string }) => `${o.kind} ${o.id}`;
    const inState = new Set(state.map(key));
    const inService = new Set(service.map(key));
    // A duplicate is an object the service holds twice: the same tenant's sub account (by name)
    // twice, or one state id recorded by two shards.
    const names = (await this.control.dumpState()).accounts
      .filter((a) => a.parent_account_id !== null && a.status !== "deleted")
      .map((a) => a.name as string);
    const duplicates = names.length - new Set(names).size + (state.length - inState.size);
    return {
      serviceObjects: service.length,
      stateObjects: state.length,
      expected: tenants * 6,
      duplicates,
      orphans: service.filter((o) => !inState.has(key(o))).length,
      missing: state.filter((o) => !inService.has(key(o))).length,
    };
  }

  /** Ids of the service objects every shard's checkpoint records (read from the file backend). */
  private stateObjects(): Array<{ kind: string; id: string }> {
    const stacks = path.join(this.stateDir, ".pulumi", "stacks", DEFAULT_PROJECT);
    const out: Array<{ kind: string; id: string }> = [];
    for (const f of fs.readdirSync(stacks).filter((x) => /^shard-\d+\.json$/.test(x))) {
      const cp = JSON.parse(fs.readFileSync(path.join(stacks, f), "utf8")) as {
        checkpoint?: { latest?: { resources?: Array<{ type: string; id?: string; custom?: boolean }> } };
      };
      for (const r of cp.checkpoint?.latest?.resources ?? []) {
        const kind = r.type.split(":").pop()!;
        if (r.custom !== false && KINDS.has(kind) && /txmail:/.test(r.type)) out.push({ kind, id: r.id ?? "" });
      }
    }
    return out;
  }

  async close(): Promise<void> {
    await this.svc.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

const tuning = (): string[] => [
  ...(SHARD_SIZE ? ["--shard-size", SHARD_SIZE] : []),
  ...(PARALLEL ? ["--parallel", PARALLEL] : []),
];

async function scenario(tenants: number, run: (env: Env) => Promise<Step[]>): Promise<FleetScenario> {
  const env = await Env.start();
  try {
    const integrity: Integrity[] = [];
    const steps = await run(env);
    integrity.push(await env.integrity(tenants));
    return { tenants, steps, integrity };
  } finally {
    await env.close();
  }
}

export async function benchFleet(): Promise<FleetBenchResult> {
  const load = [`before: ${uptime()}`];
  let oneStack: FleetScenario | undefined;
  if (WITH_ONE_STACK) {
    oneStack = await scenario(COMPARE, async (env) => {
      env.writeTenants(COMPARE);
      return [await env.step(`one stack, ${COMPARE} tenants`, ["up", "--shard-size", String(COMPARE)])];
    });
    load.push(`after one stack: ${uptime()}`);
  }
  const fleet = await scenario(COMPARE, async (env) => {
    env.writeTenants(COMPARE);
    return [await env.step(`fleet, ${COMPARE} tenants`, ["up", ...tuning()])];
  });
  load.push(`after fleet ${COMPARE}: ${uptime()}`);
  const big = await scenario(BIG, async (env) => {
    env.writeTenants(BIG);
    const steps = [await env.step(`fleet up, ${BIG} tenants`, ["up", ...tuning()])];
    load.push(`after fleet ${BIG} up: ${uptime()}`);
    steps.push(await env.step("no-op preview", ["preview", ...tuning()]));
    const one = Math.floor(BIG / 2);
    env.writeTenants(BIG, { index: one, hookPath: "hooks-v2" });
    steps.push(
      await env.step(`one tenant's change (--tenant)`, ["up", "--tenant", tenantEntry(one).name, ...tuning()]),
    );
    return steps;
  });
  load.push(`after: ${uptime()}`);
  return {
    compare: { oneStack, fleet },
    big,
    settings: { shardSize: Number(SHARD_SIZE ?? DEFAULT_SHARD_SIZE), parallel: Number(PARALLEL ?? DEFAULT_PARALLEL) },
    load,
  };
}

const met = (good: boolean) => (good ? "met" : "**missed**");

export function fleetSection(r: FleetBenchResult, started: Date): string[] {
  const row = (s: Step) =>
    `| ${s.what} | ${s.seconds} | ${s.shards} | ${s.created} | ${s.updated} | ${s.deleted} | ${s.unchanged} | ${s.failed} | ${s.requests} | ${s.writes} | ${s.rateLimited} |`;
  const head = [
    "| run | seconds | shards | created | updated | deleted | unchanged | failed | requests | writes | 429s |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const integrityRows = (name: string, sc: FleetScenario | undefined) =>
    (sc?.integrity ?? []).map(
      (i) =>
        `| ${name} | ${i.expected} | ${i.serviceObjects} | ${i.stateObjects} | ${i.duplicates} | ${i.orphans} | ${i.missing} |`,
    );
  const [up, preview, change] = r.big.steps;
  const one = r.compare.oneStack?.steps[0];
  const fl = r.compare.fleet.steps[0]!;
  const envSet = Object.entries(process.env).filter(([k]) => k.startsWith("BENCH_FLEET_"));
  return [
    "## Fleets: one stack vs shard stacks (`txmail-fleet`)",
    "",
    `Run on ${started.toISOString().slice(0, 16).replace("T", " ")} UTC with \`bash scripts/bench.sh fleet\`${envSet.length ? ` (with ${envSet.map(([k, v]) => `${k}=${v}`).join(" ")})` : ""}`,
    `(bench/fleet.ts): ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}; the machine was shared with other`,
    "work — its load during the run:",
    "",
    ...r.load.map((l) => `- ${l}`),
    "",
    `Fleet settings: shard size ${r.settings.shardSize}, ${r.settings.parallel} shards at once. Each tenant is 6 resources`,
    "(bench/programs/tenants' graph, from a tenants file); one stack is the same command with one shard",
    "(`--shard-size` = tenants). The command runs from the package installed in a node_modules folder, as",
    "users install it. Each scenario starts from a fresh emulator (100 rps, burst 200) and backend;",
    "requests and writes are the emulator's counters for that command, 429s its rate-limit counters.",
    "",
    ...head,
    ...(one ? [row(one)] : []),
    row(fl),
    ...r.big.steps.map(row),
    "",
    "Goals (2-core machine):",
    "",
    ...(one
      ? [
          `- ${COMPARE} tenants: fleet ${fl.seconds} s vs one stack ${one.seconds} s (${Math.round((one.seconds / fl.seconds) * 10) / 10}× faster)`,
        ]
      : []),
    `- ${r.big.tenants} tenants up ≤ 300 s: ${up?.seconds} s — ${met((up?.seconds ?? Infinity) <= 300 && up?.exitCode === 0)}`,
    `- no-op fleet preview ≤ 60 s: ${preview?.seconds} s — ${met((preview?.seconds ?? Infinity) <= 60 && preview?.exitCode === 0)}`,
    `- one tenant's change applied ≤ 30 s: ${change?.seconds} s — ${met((change?.seconds ?? Infinity) <= 30 && change?.exitCode === 0)}`,
    "",
    "Integrity after the last `up` of each scenario (service objects vs the ids in every shard's checkpoint):",
    "",
    "| scenario | expected objects | service | in state | duplicates | orphans | missing |",
    "|---|---|---|---|---|---|---|",
    ...integrityRows(`one stack, ${COMPARE}`, r.compare.oneStack),
    ...integrityRows(`fleet, ${COMPARE}`, r.compare.fleet),
    ...integrityRows(`fleet, ${r.big.tenants}`, r.big),
    "",
  ];
}

async function main(): Promise<void> {
  const started = new Date();
  const result = await benchFleet();
  publishSection(fleetSection(result, started), { name: "fleet", result });
}

if (require.main === module) runBenchmark(main);
