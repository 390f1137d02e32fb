// The fleet command's run: place the tenants, pick the shards, drive each shard stack in a worker
// with bounded parallelism, report as it goes, and answer with the exit code (0: every shard ran and
// succeeded; 1: a shard failed or was not run; the others always finish first).
import * as os from "node:os";
import * as path from "node:path";
import { loadTenantsFile, type TenantEntry } from "../sdk/nodejs/tenantsFile";
import { type FleetOptions, UsageError } from "./args";
import { DEFAULT_FACE, DEFAULT_SHARD_SIZE, shardStackName } from "./defaults";
import { emptyPlacement, place, type Placement, type PlacementChange, tenantsOf } from "./placement";
import { tenantOutputs } from "./output";
import { placementPathFor, readPlacement, writePlacement } from "./placementFile";
import { runBounded } from "./pool";
import type { ShardJob } from "./protocol";
import { leftoversLine, runningLine, shardDoneLine, summaryTable } from "./report";
import { selectShards } from "./selection";
import type { StepCounts } from "./stepCounts";
import { packageModulesDir, prepareWorkDir } from "./workDir";
import type * as DnsRun from "./dns/run";
import type * as DriftRun from "./drift/run";
import type * as HtmlWrite from "./html/write";
import { runReport } from "./html/runReport";
import { type ShardListener, type ShardResult, WorkerLane } from "./workerLane";

export interface FleetIo {
  out(line: string): void;
  /** A command's result for programs (drift --json): stdout, while `out` may go to stderr. */
  result?(text: string): void;
  /** Set by the CLI on Ctrl-C: running shards finish, no new shard starts. */
  interrupted(): boolean;
}

const PACKAGE_ROOT = path.resolve(__dirname, "..", "..");

/** The tenants file read and placed: what every operation starts from. */
export interface PlacedFleet {
  tenantsFile: string;
  placementFile: string;
  entries: Map<string, TenantEntry>;
  previous: Placement | undefined;
  shardSize: number;
  change: PlacementChange;
}

export async function runFleet(opts: FleetOptions, io: FleetIo): Promise<number> {
  // Reads a report file only: no tenants file, no stack.
  if (opts.operation === "report") return (require("./html/write") as typeof HtmlWrite).runReportCommand(opts, io.out);
  const fleet = placeFleet(opts);
  if (opts.operation === "output") return showOutput(opts, fleet, io);
  reportPlacement(opts, fleet, io);
  if (opts.operation === "place") return listShards(fleet, io);
  // Loaded only for drift: its inventory brings the policy pack's rules.
  if (opts.operation === "drift") return (require("./drift/run") as typeof DriftRun).runDrift(opts, fleet, io);
  if (opts.operation === "dns") return (require("./dns/run") as typeof DnsRun).runDns(opts, fleet, io);
  return runShards(opts, fleet, io);
}

/** Reads the tenants file and the placement, and places the tenants (nothing written yet). */
function placeFleet(opts: FleetOptions): PlacedFleet {
  const tenantsFile = opts.tenantsFile;
  const placementFile = opts.placementFile ?? placementPathFor(tenantsFile);
  const entries = new Map(loadTenantsFile(tenantsFile).tenants.map((t) => [t.name, t]));
  const previous = readPlacement(placementFile);
  const shardSize = opts.shardSize ?? previous?.shardSize ?? DEFAULT_SHARD_SIZE;
  if (previous && opts.face && opts.face !== previous.face) {
    throw new UsageError(
      `--face: this fleet's resources are ${previous.face} (${placementFile}); switching to ${opts.face} would give ` +
        `every resource another type, which the engine replaces (new objects at the service)`,
    );
  }
  const formerNames = new Map([...entries.values()].map((t) => [t.name, t.formerNames ?? []]));
  const change = place(
    previous ?? emptyPlacement(shardSize, opts.face ?? DEFAULT_FACE),
    [...entries.keys()],
    shardSize,
    formerNames,
  );
  return { tenantsFile, placementFile, entries, previous, shardSize, change };
}

/** `output`: reads the tenant's shard stack only; stdout is the JSON alone, for `jq`. */
async function showOutput(opts: FleetOptions, fleet: PlacedFleet, io: FleetIo): Promise<number> {
  const { tenantsFile, placementFile, change } = fleet;
  const [shard] = selectShards(change, { tenants: opts.tenants }, { tenantsFile, placementFile });
  // The CLI runs in the work dir (the project's Pulumi.yaml), which a fresh checkout has not got yet.
  const workDir = workDirOf(opts, tenantsFile);
  prepareWorkDir(workDir, opts.project);
  const outputs = await tenantOutputs({
    tenant: opts.tenants[0]!,
    stackName: shardStackName(shard!),
    workDir,
    showSecrets: opts.showSecrets,
  });
  io.out(JSON.stringify(outputs, null, 2));
  return 0;
}

/** Says how the tenants are placed, refuses a change under --frozen, and saves it for `up` and `place`. */
function reportPlacement(opts: FleetOptions, fleet: PlacedFleet, io: FleetIo): void {
  const { placementFile, previous, shardSize, change } = fleet;
  const placementChanged =
    !previous ||
    change.added.length > 0 ||
    change.removed.length > 0 ||
    change.renamed.length > 0 ||
    shardSize !== previous.shardSize;
  if (opts.frozen && placementChanged) {
    throw new UsageError(
      `--frozen: ${describeChange(change, previous === undefined)}; run 'txmail-fleet place' and commit ${placementFile}`,
    );
  }
  io.out(
    `placement: ${fleet.entries.size} tenants in ${change.placement.shards.length} shards of at most ${shardSize}, ${change.placement.face} face (${placementFile})` +
      (placementChanged ? `; ${describeChange(change, previous === undefined)}` : ""),
  );
  // Only commands that act write the placement: a preview leaves the working tree as it found it.
  if ((opts.operation === "up" || opts.operation === "place") && placementChanged) {
    writePlacement(placementFile, change.placement);
  }
}

/** `place`: the shards and their tenants. */
function listShards(fleet: PlacedFleet, io: FleetIo): number {
  const { placement } = fleet.change;
  for (const shard of placement.shards) {
    io.out(`${shardStackName(shard)}: ${tenantsOf(placement, shard).join(", ") || "(no tenants)"}`);
  }
  return 0;
}

/** up, preview, refresh, destroy: the selected shards' jobs, run in workers, then the summary. */
async function runShards(opts: FleetOptions, fleet: PlacedFleet, io: FleetIo): Promise<number> {
  const jobs = shardJobs(opts, fleet);
  if (jobs.length === 0) {
    io.out("no shard to run for these options");
    return 0;
  }
  io.out(
    `${opts.operation}: ${jobs.length} of ${fleet.change.placement.shards.length} shards, ${opts.parallel} at a time`,
  );
  const started = Date.now();
  const results = await runInWorkers(opts, jobs, started, io);
  const exitCode = summarize(opts, jobs, results, started, io);
  writeReports(opts, fleet, { jobs, results, started, exitCode }, io);
  return exitCode;
}

/** `--json` (stdout) and `--html FILE`: the run's report (fleet/html/runReport.ts). */
export function writeReports(
  opts: FleetOptions,
  fleet: PlacedFleet,
  run: {
    jobs: readonly ShardJob[];
    results: readonly (ShardResult | undefined)[];
    started: number;
    exitCode: number;
    drift?: Parameters<typeof runReport>[0]["drift"];
    dns?: Parameters<typeof runReport>[0]["dns"];
  },
  io: FleetIo,
): void {
  if (!opts.json && !opts.htmlFile) return;
  const report = runReport({
    command: opts.operation,
    started: run.started,
    ended: Date.now(),
    fleet: { tenants: fleet.entries.size, shards: fleet.change.placement.shards.length },
    jobs: run.jobs.map((j) => ({ stackName: j.stackName, tenants: j.entries.map((e) => e.name) })),
    results: run.results,
    exitCode: run.exitCode,
    drift: run.drift,
    dns: run.dns,
  });
  if (opts.htmlFile) {
    const { writeHtmlReport } = require("./html/write") as typeof HtmlWrite;
    const bytes = writeHtmlReport(report, opts.htmlFile, opts.compareFile);
    io.out(`report: ${opts.htmlFile} (${(bytes / 1024).toFixed(0)} KiB)`);
  }
  // drift and dns print their own JSON (kept as it was); the run's report holds it under drift/dns.
  if (opts.json && !run.drift && !run.dns) (io.result ?? io.out)(JSON.stringify(report, null, 2));
}

export function shardJobs(opts: FleetOptions, fleet: PlacedFleet): ShardJob[] {
  const { tenantsFile, placementFile, entries, change } = fleet;
  const shards = selectShards(change, opts, { tenantsFile, placementFile });
  if (shards.length === 0) return [];
  const workDir = workDirOf(opts, tenantsFile);
  const { logsDir } = prepareWorkDir(workDir, opts.project);
  return shards.map((shard) => ({
    operation: opts.operation as ShardJob["operation"],
    shard,
    stackName: shardStackName(shard),
    project: opts.project,
    workDir,
    // Placement holds only names of this file, so every name has its entry.
    entries: tenantsOf(change.placement, shard).map((name) => entries.get(name)!),
    face: change.placement.face,
    policyPacks: opts.policyPacks,
    policyPackConfigs: opts.policyPackConfigs,
    secretsProvider: opts.secretsProvider,
    debug: opts.debug,
    logFile: path.join(logsDir, `${shardStackName(shard)}.${opts.operation}.log`),
  }));
}

/** Runs the jobs, opts.parallel at a time, with a progress line every opts.progressSeconds. */
export async function runInWorkers(
  opts: FleetOptions,
  jobs: ShardJob[],
  started: number,
  io: FleetIo,
  /** What drift and dns read, as each shard's worker sends it. */
  findings: Pick<ShardListener, "onDrift" | "onDns"> = {},
): Promise<(ShardResult | undefined)[]> {
  const running = new Map<string, StepCounts>();
  const finished: ShardResult[] = [];
  const heartbeat = setInterval(() => {
    if (running.size > 0) io.out(runningLine(running, finished.length, jobs.length, Date.now() - started));
  }, opts.progressSeconds * 1000);
  heartbeat.unref();
  const env = workerEnv(opts.saveEveryStep);
  const lanes = Array.from({ length: Math.min(opts.parallel, jobs.length) }, () => new WorkerLane(env));
  const results = await runBounded(
    jobs,
    opts.parallel,
    async (job, lane) => {
      const queuedMs = Date.now() - started;
      io.out(
        `[${job.stackName}] ${opts.operation}: ${job.entries.length} tenants${job.entries.length ? "" : " (its objects are deleted)"}`,
      );
      running.set(job.stackName, { created: 0, updated: 0, replaced: 0, deleted: 0, same: 0, failed: 0 });
      const result = await lanes[lane]!.run(job, {
        onProgress: (j, counts) => running.set(j.stackName, counts),
        onError: (j, message) => io.out(`[${j.stackName}] error: ${message}`),
        onPolicy: (j, message) => io.out(`[${j.stackName}] ${message}`),
        onNotice: (j, message) => io.out(`[${j.stackName}] ${message}`),
        ...findings,
      });
      running.delete(job.stackName);
      result.queuedMs = queuedMs;
      finished.push(result);
      io.out(shardDoneLine(result, finished.length, jobs.length, finished.filter((r) => !r.ok).length));
      return result;
    },
    io.interrupted,
  );
  for (const lane of lanes) lane.close();
  clearInterval(heartbeat);
  return results;
}

/** The summary table and the exit code: 1 when a shard failed or was not run. */
function summarize(
  opts: FleetOptions,
  jobs: ShardJob[],
  results: (ShardResult | undefined)[],
  started: number,
  io: FleetIo,
): number {
  const ran = results.filter((r): r is ShardResult => r !== undefined);
  const notRun = jobs.filter((_, i) => results[i] === undefined).map((j) => j.stackName);
  io.out("");
  io.out(summaryTable(ran, notRun));
  io.out(`${opts.operation} finished in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  const leftovers = leftoversLine(ran);
  if (leftovers) io.out(leftovers);
  const failed = ran.filter((r) => !r.ok);
  if (failed.length > 0 || notRun.length > 0) {
    io.out(
      `${failed.length} shard(s) failed${notRun.length ? `, ${notRun.length} not run (interrupted)` : ""}: ` +
        `run the same command again to continue — shards already up to date are no-ops`,
    );
    return 1;
  }
  return 0;
}

function workDirOf(opts: FleetOptions, tenantsFile: string): string {
  return opts.workDir ?? path.join(path.dirname(tenantsFile), ".txmail-fleet");
}

/**
 * The workers' environment, which the engine and the provider processes it starts inherit:
 * - NODE_PATH with the node_modules folder that holds pulumi-txmail (see packageModulesDir);
 * - PATH as it is: the native face's plugin is acquired by the engine as for every program, by the
 *   name, version and download URL the SDK's resources give (sdk/nodejs/internal/plugin.ts) — not the
 *   package's bin/ script, which needs Node and would shadow the plugin the user installed;
 * - Node's compile cache (Node ≥ 22.1; older versions ignore the variable), which keeps the compiled
 *   code of Pulumi's SDK on disk: every shard run starts a provider process that loads it again
 *   (~0.3 core-seconds saved per start). Kept where Node keeps it by default, unless the user chose;
 * - PULUMI_SKIP_CHECKPOINTS: the engine keeps state in memory and saves it once when the run ends
 *   (also a failed one), instead of rewriting the whole checkpoint before and after every step —
 *   2-3x faster. Only a killed run loses its edits, and the idempotency keys make its rerun replay
 *   what it had created (docs/guide/fleets.md#state-written-once-per-run). `--save-every-step` opts
 *   out; a value the user set wins;
 * - PULUMI_PARALLEL_DIFF: the engine diffs resources in parallel instead of one at a time (our
 *   diffs are pure functions of the inputs and state): no-op previews and ups of 240 tenants took
 *   7 % and 9 % less time (bench/RESULTS.md "Engine settings as fleet levers"). A value the user set wins.
 */
export function workerEnv(saveEveryStep: boolean, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const modulesDir = packageModulesDir(PACKAGE_ROOT);
  return {
    ...env,
    ...(modulesDir && { NODE_PATH: [modulesDir, env.NODE_PATH].filter(Boolean).join(path.delimiter) }),
    NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), "node-compile-cache"),
    PULUMI_SKIP_CHECKPOINTS: saveEveryStep ? "false" : (env.PULUMI_SKIP_CHECKPOINTS ?? "true"),
    PULUMI_PARALLEL_DIFF: env.PULUMI_PARALLEL_DIFF ?? "true",
  };
}

function describeChange(change: PlacementChange, first: boolean): string {
  const parts: string[] = [];
  if (first) parts.push("no placement file yet");
  if (change.added.length) {
    parts.push(`new: ${change.added.map((a) => `${a.tenant} → ${shardStackName(a.shard)}`).join(", ")}`);
  }
  if (change.renamed.length) {
    parts.push(
      `renamed (their objects stay): ${change.renamed.map((r) => `${r.from} → ${r.to} in ${shardStackName(r.shard)}`).join(", ")}`,
    );
  }
  if (change.removed.length) {
    parts.push(
      `removed (deleted by their shard's next up): ${change.removed.map((r) => `${r.tenant} from ${shardStackName(r.shard)}`).join(", ")}`,
    );
  }
  return parts.join("; ") || "shard size changed";
}
