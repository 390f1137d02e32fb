// `txmail-fleet dns`: every selected tenant's domain records as the service holds them now, read in
// the fleet's workers with each tenant's own key (shardDns.ts), then shown as a table, as JSON
// (`--json`) or as a zone-file fragment (`--zone`). Reads only, unless `--check-dns` asks the
// service to check each domain once.
import type { FleetOptions } from "../options";
import type { FleetIo, PlacedFleet } from "../command";
import { runInWorkers, shardJobs, writeReports } from "../shardRun";
import { dnsExitCode, dnsHeadline, requiredOnly, terminalDnsReport } from "./report";
import type { ShardDns, TenantDns } from "./types";
import { zoneFragment } from "./zone";

export async function runDns(opts: FleetOptions, fleet: PlacedFleet, io: FleetIo): Promise<number> {
  const readAt = new Date();
  const asked = new Set(opts.tenants);
  // A dns job runs no program: its entries are the tenants to read (with --tenant, only those named).
  const jobs = shardJobs(opts, fleet)
    .map((job) => ({
      ...job,
      entries: asked.size ? job.entries.filter((e) => asked.has(e.name)) : job.entries,
      checkDns: opts.checkDns,
    }))
    .filter((job) => job.entries.length > 0);
  const total = fleet.change.placement.shards.length;
  const writes = opts.checkDns ? "check-dns once per domain, nothing else written" : "reads only: nothing is written";
  io.out(`dns: ${jobs.length} of ${total} shards, ${opts.parallel} at a time (${writes})`);
  const answers = new Map<string, ShardDns>();
  const started = Date.now();
  const results = await runInWorkers(opts, jobs, started, io, {
    onDns: (job, report) => answers.set(job.stackName, report),
  });
  // A shard without an answer (its worker failed, Ctrl-C): each of its tenants, not read, and why.
  const read: TenantDns[] = jobs.flatMap(
    (job, i) =>
      answers.get(job.stackName)?.tenants ??
      job.entries.map((e) => ({
        tenant: e.name,
        shard: job.stackName,
        status: "unreadable" as const,
        domain: e.domain ?? null,
        dnsValid: null,
        lastCheckedAt: null,
        records: [],
        note: `${job.stackName}: ${results[i]?.error ?? "not run (interrupted)"}`,
      })),
  );
  const exitCode = dnsExitCode(read);
  const tenants = opts.requiredOnly ? requiredOnly(read) : read;
  writeReports(opts, fleet, { jobs, results, started, exitCode, dns: tenants }, io);
  if (!opts.json && !opts.zone) {
    io.out(`\n${terminalDnsReport(tenants, exitCode)}`);
    return exitCode;
  }
  // stdout is the document alone (for jq, for the DNS team's file); what it found is said beside it.
  const result = io.result ?? io.out;
  if (opts.json) result(JSON.stringify(tenants, null, 2));
  else result(zoneFragment(tenants, { readAt, requiredOnly: opts.requiredOnly }).trimEnd());
  io.out(`${dnsHeadline(tenants)}; exit ${exitCode}`);
  return exitCode;
}
