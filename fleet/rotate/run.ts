// `txmail-fleet rotate`'s run in the fleet command: each selected shard's state read (exported
// without its secrets, `parallel` at a time), the credentials due found (plan.ts), then only the
// shards holding something due run, in the fleet's workers, a targeted `up` of those credentials and
// what depends on them; last the table or the JSON report (report.ts) and the exit code (0: all
// that was due was done; 1: a shard failed or was not run).
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { rotationNow } from "../../provider/core/rotating/clock";
import { durationMs } from "../../provider/api/duration";
import { censusWorkspace, runCli } from "../census";
import type { FleetIo, PlacedFleet } from "../command";
import type { FleetOptions } from "../options";
import { runBounded } from "../pool";
import { runInWorkers, shardJobs, summarize } from "../shardRun";
import type { ExportedState } from "../shardState";
import { workDirOf } from "../workDir";
import { planShard, targetsOf } from "./plan";
import { rotatedCredentials, rotateReport, rotateTable } from "./report";
import type { RotationOutcome } from "./types";

export async function runRotate(opts: FleetOptions, fleet: PlacedFleet, io: FleetIo): Promise<number> {
  const started = Date.now();
  // The instant the plan decides at; the providers decide again at theirs, a few seconds later.
  const now = rotationNow();
  const olderThanMs = opts.olderThan === undefined ? undefined : durationMs(opts.olderThan);
  const jobs = shardJobs(opts, fleet);
  const ws = await censusWorkspace(workDirOf(opts, fleet.tenantsFile), opts.secretsProvider);
  const states = await runBounded(jobs, opts.parallel, (job) => exportWithoutSecrets(ws, job.stackName));
  const tenants = opts.tenants.length > 0 ? new Set(opts.tenants) : undefined;
  const planned = jobs.flatMap((job, i) => {
    const state = states[i];
    return state ? planShard(state, job.stackName, { now, olderThanMs, tenants }) : [];
  });
  const due = jobs
    .map((job) => ({ ...job, rotate: targetsOf(planned, job.stackName) }))
    .filter((job) => job.rotate.length > 0);
  const unmade = jobs.filter((_, i) => !states[i]).map((j) => j.stackName);
  const rotations = planned.filter((c) => c.due?.work === "rotate").length;
  io.out(
    `rotate: ${planned.length} credentials on a schedule in ${jobs.length - unmade.length} shards read in ` +
      `${((Date.now() - started) / 1000).toFixed(1)}s` +
      (unmade.length ? ` (never applied: ${unmade.join(", ")})` : "") +
      `; due: ${rotations} rotations, ${planned.filter((c) => c.due?.work === "revoke previous").length} revocations` +
      (due.length ? ` — running ${due.length} shards, ${opts.parallel} at a time` : " — no shard to run"),
  );

  const outcomes = new Map<string, RotationOutcome>();
  let exitCode = 0;
  let results: Awaited<ReturnType<typeof runInWorkers>> = [];
  if (due.length > 0) {
    results = await runInWorkers(opts, due, started, io, {
      onRotation: (_job, told) => told.forEach((o) => outcomes.set(o.urn, o)),
    });
    exitCode = summarize(opts, due, results, started, io);
  }
  const failed = due.flatMap((job, i) => {
    const r = results[i];
    return r && !r.ok ? [{ shard: job.stackName, error: r.error ?? "see the errors above" }] : [];
  });
  const notRun = due.filter((_, i) => !results[i]).map((j) => j.stackName);
  const credentials = rotatedCredentials(planned, outcomes, {
    failed: new Set(failed.map((f) => f.shard)),
    notRun: new Set(notRun),
  });
  const report = rotateReport({
    now,
    olderThan: opts.olderThan,
    shardsRead: jobs.length - unmade.length,
    ran: due.filter((_, i) => results[i]).map((j) => j.stackName),
    failed,
    notRun,
    credentials,
  });
  io.out("");
  io.out(rotateTable(report));
  if (opts.json) (io.result ?? io.out)(JSON.stringify(report, null, 2));
  return Math.max(exitCode, report.exitCode);
}

/**
 * `pulumi stack export` without `--show-secrets` (the Automation API's exportStack shows them): the
 * plan reads times and names only, so secrets stay ciphertext here and nothing is decrypted. A shard
 * whose stack does not exist yet (never applied) has nothing to rotate: undefined.
 */
async function exportWithoutSecrets(ws: LocalWorkspace, stackName: string): Promise<ExportedState | undefined> {
  try {
    const r = await runCli(ws, ["stack", "export", "--stack", stackName]);
    return JSON.parse(r.stdout) as ExportedState;
  } catch (e) {
    if (/no stack named|stack .* not found/i.test(e instanceof Error ? e.message : String(e))) return undefined;
    throw e;
  }
}
