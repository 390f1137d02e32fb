// The report's tenants as the page shows them: one row per tenant with its statuses, and what the
// page opens per tenant. `tenantView` is self-contained (no imports at run time, no closures): the
// page runs this very function on the JSON it embeds (page.ts inlines its source), and Node runs it
// for `--compare` and the tests, so the page's counts and the report's cannot differ.
import type { FleetRunReport } from "./runReport";

export const STATUSES = ["changed", "drifted", "failed", "dns", "leftovers"] as const;
export type Status = (typeof STATUSES)[number];

export interface TenantRow {
  tenant: string;
  shard: string;
  statuses: Status[];
  /** Resources changed (a preview: would be), drifted, and likely leftovers. */
  changed: number;
  drifted: number;
  leftovers: number;
  /** The DNS column: "verified", "not seen", "no domain", … ("" when the run did not read DNS). */
  dns: string;
}

export interface TenantView {
  rows: TenantRow[];
  counts: Record<Status, number>;
  shards: string[];
}

export function tenantView(report: FleetRunReport): TenantView {
  const rows = new Map<string, TenantRow>();
  const row = (tenant: string, shard: string): TenantRow => {
    let r = rows.get(tenant);
    if (!r) {
      r = { tenant, shard, statuses: [], changed: 0, drifted: 0, leftovers: 0, dns: "" };
      rows.set(tenant, r);
    }
    if (!r.shard && shard) r.shard = shard;
    return r;
  };
  const flag = (r: TenantRow, s: Status) => {
    if (!r.statuses.includes(s)) r.statuses.push(s);
  };
  const shardOf = new Map<string, string>();
  for (const s of report.shards) {
    for (const t of s.tenants) {
      shardOf.set(t, s.shard);
      row(t, s.shard);
    }
  }
  const failedHere = new Set<string>();
  for (const c of report.changes) {
    if (!c.tenant) continue;
    const r = row(c.tenant, shardOf.get(c.tenant) ?? "");
    if (c.op === "failed") {
      flag(r, "failed");
      failedHere.add(r.shard);
    } else {
      r.changed++;
      flag(r, "changed");
    }
  }
  for (const d of report.drift ? report.drift.drift : []) {
    if (!d.tenant) continue;
    const r = row(d.tenant, shardOf.get(d.tenant) ?? "");
    if (d.status === "failed") {
      flag(r, "failed");
      failedHere.add(r.shard);
    } else {
      r.drifted++;
      flag(r, "drifted");
    }
  }
  // A shard that failed without a resource to blame (its worker died, it was not run, it could not
  // be checked): each of its tenants failed.
  const uncheckedShards = report.drift ? report.drift.unchecked.map((u) => u.shard) : [];
  for (const s of report.shards) {
    if ((!s.ok && !failedHere.has(s.shard)) || uncheckedShards.includes(s.shard)) {
      for (const t of s.tenants) flag(row(t, s.shard), "failed");
    }
  }
  for (const t of report.dns ?? []) {
    const r = row(t.tenant, t.shard);
    const unseen = t.records.filter((x) => x.required && !x.propagated).length;
    if (t.status === "read") {
      const verified = t.dnsValid === true && unseen === 0;
      r.dns = verified ? "verified" : "not seen";
      if (!verified) flag(r, "dns");
    } else if (t.status === "deleted") {
      r.dns = "deleted at the service";
      flag(r, "dns");
    } else {
      r.dns = t.status === "no-domain" ? "no domain" : t.status === "not-applied" ? "not applied" : "not read";
      if (t.status === "unreadable") flag(r, "failed");
    }
    if (t.checkDns && t.checkDns.ok === false) flag(r, "failed");
  }
  const leftovers = [
    ...report.leftovers.map((l) => l.tenant),
    ...(report.drift ? report.drift.unmanaged.map((u) => u.tenant ?? "") : []),
  ];
  for (const tenant of leftovers) {
    if (!tenant) continue;
    const r = row(tenant, shardOf.get(tenant) ?? "");
    r.leftovers++;
    flag(r, "leftovers");
  }
  const all = [...rows.values()];
  const counts = { changed: 0, drifted: 0, failed: 0, dns: 0, leftovers: 0 };
  for (const r of all) for (const s of r.statuses) counts[s]++;
  const shards = [...new Set(all.map((r) => r.shard).filter(Boolean))].sort();
  return { rows: all, counts, shards };
}

/** What changed since a previous run: each status's count then and now, and who entered or left it. */
export interface Comparison {
  previous: { command: string; startedAt: string };
  counts: Record<Status, { before: number; now: number }>;
  /** Per status, the tenants that have it now and had not (`entered`) or had it and have not (`left`). */
  entered: Record<Status, string[]>;
  left: Record<Status, string[]>;
  added: string[];
  removed: string[];
}

export function compareViews(
  previous: { command: string; startedAt: string },
  before: TenantView,
  now: TenantView,
): Comparison {
  const had = new Map(before.rows.map((r) => [r.tenant, r]));
  const has = new Map(now.rows.map((r) => [r.tenant, r]));
  const empty = () => ({ changed: [], drifted: [], failed: [], dns: [], leftovers: [] }) as Record<Status, string[]>;
  const entered = empty();
  const left = empty();
  for (const s of STATUSES) {
    for (const r of now.rows)
      if (r.statuses.includes(s) && !had.get(r.tenant)?.statuses.includes(s)) entered[s].push(r.tenant);
    for (const r of before.rows)
      if (r.statuses.includes(s) && !has.get(r.tenant)?.statuses.includes(s)) left[s].push(r.tenant);
  }
  const counts = Object.fromEntries(
    STATUSES.map((s) => [s, { before: before.counts[s], now: now.counts[s] }]),
  ) as Comparison["counts"];
  return {
    previous,
    counts,
    entered,
    left,
    added: now.rows.filter((r) => !had.has(r.tenant)).map((r) => r.tenant),
    removed: before.rows.filter((r) => !has.has(r.tenant)).map((r) => r.tenant),
  };
}
