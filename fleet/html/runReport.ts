// The fleet's run report as one JSON document: what `up`, `preview`, `refresh` and `destroy` print
// with `--json`, what `--html FILE` embeds in its page, and what `txmail-fleet report` reads back.
// drift and dns keep their own JSON (`drift --json`, `dns --json`): this report carries it whole
// under `drift` / `dns`, and `report` reads either of them alone too (loadReport). Secrets never
// reach it: changes name fields only, drift's values are masked at the source (drift/types.ts).
import type { Operation } from "../options";
import type { DriftReport } from "../drift/report";
import type { TenantDns } from "../dns/types";
import type { StepCounts } from "../stepCounts";
import type { ShardResult } from "../workerLane";
import type { LeftoverLine, ResourceChange } from "./runChanges";

export const REPORT_FORMAT = "txmail-fleet-report/1";

/** One shard's time: how long it waited for a lane, and how long it ran (the fleet's measures). */
export interface ShardTime {
  shard: string;
  /** The shard's tenants (every tenant the run covered is in one shard's list). */
  tenants: string[];
  /** Not run (interrupted), or run and failed: false. */
  ok: boolean;
  /** Null: not run. */
  queuedMs: number | null;
  runningMs: number | null;
  /** Time the shard's requests waited on the service's rate limit; absent: not measured. */
  limitWaitMs?: number;
  counts?: StepCounts;
  error?: string;
}

export interface FleetRunReport {
  format: typeof REPORT_FORMAT;
  command: Operation;
  /** When the run started (ISO 8601). */
  startedAt: string;
  durationMs: number;
  /** The whole fleet (the placement), whatever part of it this run covered. */
  fleet: { tenants: number; shards: number };
  /** The shards this run covered. */
  shards: ShardTime[];
  /** up/preview/refresh/destroy: each resource changed (a preview: would be) or failed. */
  changes: ResourceChange[];
  /** Likely leftovers the provider reported, with the lines that take or delete them. */
  leftovers: LeftoverLine[];
  /** The exit code of the run. */
  exitCode: number;
  /** drift: its report, as `drift --json` prints it. */
  drift?: DriftReport;
  /** dns: its report, as `dns --json` prints it. */
  dns?: TenantDns[];
}

/** A shard job as the report needs it. */
export interface ShardOfRun {
  stackName: string;
  tenants: string[];
}

/** The report of a run from its shards' results (undefined: not run). */
export function runReport(o: {
  command: Operation;
  started: number;
  ended: number;
  fleet: { tenants: number; shards: number };
  jobs: readonly ShardOfRun[];
  results: readonly (ShardResult | undefined)[];
  exitCode: number;
  drift?: DriftReport;
  dns?: TenantDns[];
}): FleetRunReport {
  const shards = o.jobs.map((job, i): ShardTime => {
    const r = o.results[i];
    if (!r) return { shard: job.stackName, tenants: job.tenants, ok: false, queuedMs: null, runningMs: null };
    return {
      shard: job.stackName,
      tenants: job.tenants,
      ok: r.ok,
      queuedMs: r.queuedMs ?? 0,
      runningMs: r.durationMs,
      counts: r.counts,
      ...(r.error ? { error: r.error } : {}),
    };
  });
  const ran = o.results.filter((r): r is ShardResult => r !== undefined);
  return {
    format: REPORT_FORMAT,
    command: o.command,
    startedAt: new Date(o.started).toISOString(),
    durationMs: o.ended - o.started,
    fleet: o.fleet,
    shards,
    // drift and dns read: what they found is in their own report, not steps of a change.
    changes: o.drift || o.dns ? [] : ran.flatMap((r) => r.changes ?? []),
    leftovers: ran.flatMap((r) => r.leftoverLines ?? []),
    exitCode: o.exitCode,
    ...(o.drift ? { drift: o.drift } : {}),
    ...(o.dns ? { dns: o.dns } : {}),
  };
}

export class ReportFileError extends Error {
  override readonly name = "ReportFileError";
}

/**
 * A report read back from JSON: this report, or `drift --json`'s or `dns --json`'s alone (taken in
 * whole under `drift` / `dns`, its shards and times unknown).
 */
export function loadReport(raw: unknown, file: string): FleetRunReport {
  if (isObject(raw) && raw.format === REPORT_FORMAT) return raw as unknown as FleetRunReport;
  if (Array.isArray(raw) && raw.every((t) => isObject(t) && typeof t.tenant === "string" && "records" in t)) {
    const dns = raw as TenantDns[];
    return wrapped(
      "dns",
      "",
      dns.map((t) => [t.shard, t.tenant]),
      { dns },
    );
  }
  if (isObject(raw) && typeof raw.checkedAt === "string" && Array.isArray(raw.drift)) {
    const drift = raw as unknown as DriftReport;
    const named = [...drift.drift.map((d) => d.tenant), ...drift.unmanaged.map((u) => u.tenant ?? "")];
    const shards = drift.unchecked.map((u) => [u.shard, ""] as [string, string]);
    return { ...wrapped("drift", drift.checkedAt, [], { drift }), ...sizeOf(drift, named, shards) };
  }
  throw new ReportFileError(
    `${file}: not a txmail-fleet report (the JSON of up/preview/refresh --json, drift --json or dns --json)`,
  );
}

function sizeOf(drift: DriftReport, named: string[], unchecked: [string, string][]) {
  return {
    fleet: { tenants: drift.tenantsChecked, shards: drift.shardsChecked + unchecked.length },
    // Drift's JSON names only the tenants with findings: they are the table's rows.
    shards: [
      {
        shard: "",
        tenants: [...new Set(named.filter(Boolean))],
        ok: drift.unchecked.length === 0,
        queuedMs: null,
        runningMs: null,
      },
    ],
    exitCode: drift.exitCode,
  };
}

function wrapped(
  command: "dns" | "drift",
  startedAt: string,
  pairs: Array<[string, string]>,
  extra: Pick<FleetRunReport, "dns" | "drift">,
): FleetRunReport {
  const byShard = new Map<string, string[]>();
  for (const [shard, tenant] of pairs) byShard.set(shard, [...(byShard.get(shard) ?? []), tenant]);
  return {
    format: REPORT_FORMAT,
    command,
    startedAt,
    durationMs: 0,
    fleet: { tenants: pairs.length, shards: byShard.size },
    shards: [...byShard].map(([shard, tenants]) => ({ shard, tenants, ok: true, queuedMs: null, runningMs: null })),
    changes: [],
    leftovers: [],
    exitCode: 0,
    ...extra,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
