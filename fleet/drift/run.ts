// `txmail-fleet drift`: every selected shard checked in the fleet's workers (shardCheck.ts), then
// the account-wide inventory (sub accounts and the parent account's keys no shard manages: only
// when every shard was checked), then, with --remediate, a targeted `up` of each drifted shard;
// the report on the terminal (or as JSON) and in Markdown, and its exit code (report.ts).
import * as fs from "node:fs";
import type { FleetOptions } from "../options";
import type { FleetIo, PlacedFleet } from "../command";
import { runInWorkers, shardJobs, writeReports } from "../shardRun";
import { apiFor } from "../../provider/core/clientApi";
import { resolveConnection } from "../../provider/core/connection";
import { listUnmanaged, type Listing } from "./inventory";
import { buildReport, markdownReport, terminalReport, type RemediatedShard } from "./report";
import { zeroCounts } from "../stepCounts";
import type { ShardDrift } from "./types";

export async function runDrift(opts: FleetOptions, fleet: PlacedFleet, io: FleetIo): Promise<number> {
  const checkedAt = new Date();
  const jobs = shardJobs(opts, fleet).map((job) => ({ ...job, inventory: !opts.noInventory }));
  const total = fleet.change.placement.shards.length;
  io.out(`drift: ${jobs.length} of ${total} shards, ${opts.parallel} at a time (reads only: nothing is written)`);
  const reports = new Map<string, ShardDrift>();
  const started = Date.now();
  const results = await runInWorkers(opts, jobs, started, io, {
    onDrift: (job, report) => reports.set(job.stackName, report),
  });
  const unchecked = jobs.flatMap((job, i) =>
    reports.has(job.stackName) ? [] : [{ shard: job.stackName, error: results[i]?.error ?? "not run (interrupted)" }],
  );
  const shards = jobs.flatMap((job) => reports.get(job.stackName) ?? []);
  const partial =
    opts.tenants.length > 0 || opts.runner
      ? "run without --tenant/--runner"
      : unchecked.length > 0
        ? `${unchecked.length} shard(s) could not be checked`
        : undefined;
  const account = opts.noInventory ? none() : await accountInventory(shards, partial);
  const ignored = new Set(opts.ignore);
  for (const listing of [account, ...shards]) listing.unmanaged = listing.unmanaged.filter((u) => !ignored.has(u.id));
  const remediation = opts.remediate ? await remediate(opts, fleet, shards, io) : undefined;
  const report = buildReport(checkedAt, shards, unchecked, account, remediation);
  if (opts.markdownFile) fs.writeFileSync(opts.markdownFile, markdownReport(report), { flag: "a" });
  if (opts.json) (io.result ?? io.out)(JSON.stringify(report, null, 2));
  else io.out(`\n${terminalReport(report)}`);
  writeReports(opts, fleet, { jobs, results, started, exitCode: report.exitCode, drift: report }, io);
  return report.exitCode;
}

const none = (): Listing => ({ unmanaged: [], notListed: [], listCalls: 0 });

/**
 * The parent account's sub accounts and keys that no shard manages. Only a run that checked every
 * shard knows what all of them manage; a partial run says so instead of reporting other shards'
 * sub accounts as unmanaged.
 */
async function accountInventory(shards: readonly ShardDrift[], partial: string | undefined): Promise<Listing> {
  if (partial) {
    return {
      ...none(),
      notListed: [
        {
          kind: "SubAccount",
          reason:
            "the account-wide inventory (sub accounts, the parent's keys) needs every shard: run without --tenant/--runner",
        },
      ],
    };
  }
  const parent = resolveConnection();
  const managed = new Set(shards.flatMap((s) => s.managed.map((m) => `${m.kind}:${m.id}`)));
  return listUnmanaged(apiFor(parent), { accountId: parent.accountId, kinds: ["ApiKey", "SubAccount"] }, managed);
}

/** A targeted `up` of each shard with drift: its changed and deleted resources, refreshed first. */
async function remediate(
  opts: FleetOptions,
  fleet: PlacedFleet,
  shards: readonly ShardDrift[],
  io: FleetIo,
): Promise<RemediatedShard[]> {
  const targets = new Map(
    shards
      .map((s) => [s.shard, s.drift.filter((d) => d.status !== "failed").map((d) => d.urn)] as const)
      .filter(([, urns]) => urns.length > 0),
  );
  if (targets.size === 0) return [];
  const up = { ...opts, operation: "up" as const };
  const jobs = shardJobs(up, fleet)
    .filter((job) => targets.has(job.stackName))
    .map((job) => ({
      ...job,
      remediate: targets.get(job.stackName)!,
      logFile: job.logFile.replace(/\.up\.log$/, ".remediate.log"),
    }));
  io.out(`remediate: up of ${jobs.length} shards, their drifted resources only`);
  const results = await runInWorkers(up, jobs, Date.now(), io);
  return jobs.map((job, i) => {
    const r = results[i];
    return r
      ? { shard: job.stackName, ok: r.ok, counts: r.counts, ...(r.error ? { error: r.error } : {}) }
      : {
          shard: job.stackName,
          ok: false,
          counts: zeroCounts(),
          error: "not run (interrupted)",
        };
  });
}
