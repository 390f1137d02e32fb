// Running a command on shard stacks: the selected shards' jobs, run in workers with bounded
// parallelism and a progress line as they go, the summary and exit code, and the run's report
// (--json, --html). Shared by the commands that run shards (fleet/commands).
import * as os from "node:os";
import * as path from "node:path";
import type { FleetIo, PlacedFleet } from "./command";
import { shardStackName } from "./defaults";
import type * as HtmlWrite from "./html/write";
import { runReport } from "./html/runReport";
import type { FleetOptions } from "./options";
import { tenantsOf } from "./placement";
import { runBounded } from "./pool";
import type { ShardJob } from "./protocol";
import { leftoversLine, runningLine, shardDoneLine, summaryTable } from "./report";
import { selectShards } from "./selection";
import type { StepCounts } from "./stepCounts";
import { packageModulesDir, prepareWorkDir, workDirOf } from "./workDir";
import { type ShardListener, type ShardResult, WorkerLane } from "./workerLane";
import { ROTATE_OLDER_THAN_ENV } from "../provider/core/rotating/clock";

const PACKAGE_ROOT = path.resolve(__dirname, "..", "..");

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
    fleetId: change.placement.fleetId!,
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
  /** What drift, dns and rotate read or did, as each shard's worker sends it. */
  findings: Pick<ShardListener, "onDrift" | "onDns" | "onRotation"> = {},
): Promise<(ShardResult | undefined)[]> {
  const running = new Map<string, StepCounts>();
  const finished: ShardResult[] = [];
  const heartbeat = setInterval(() => {
    if (running.size > 0) io.out(runningLine(running, finished.length, jobs.length, Date.now() - started));
  }, opts.progressSeconds * 1000);
  heartbeat.unref();
  const env = workerEnv(opts.saveEveryStep, process.env, opts.operation === "rotate" ? opts.olderThan : undefined);
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
export function summarize(
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
 *   7 % and 9 % less time (bench/RESULTS.md "Engine settings as fleet levers"). A value the user set wins;
 * - TXMAIL_ROTATE_OLDER_THAN (provider/core/rotating/clock.ts) only as `rotate --older-than` sets it:
 *   one inherited from the shell is removed, so no fleet run but that rotates a credential early.
 */
export function workerEnv(
  saveEveryStep: boolean,
  env: NodeJS.ProcessEnv = process.env,
  rotateOlderThan?: string,
): NodeJS.ProcessEnv {
  const modulesDir = packageModulesDir(PACKAGE_ROOT);
  const { [ROTATE_OLDER_THAN_ENV]: _inherited, ...rest } = env;
  return {
    ...rest,
    ...(rotateOlderThan !== undefined && { [ROTATE_OLDER_THAN_ENV]: rotateOlderThan }),
    ...(modulesDir && { NODE_PATH: [modulesDir, env.NODE_PATH].filter(Boolean).join(path.delimiter) }),
    NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), "node-compile-cache"),
    PULUMI_SKIP_CHECKPOINTS: saveEveryStep ? "false" : (env.PULUMI_SKIP_CHECKPOINTS ?? "true"),
    PULUMI_PARALLEL_DIFF: env.PULUMI_PARALLEL_DIFF ?? "true",
  };
}
