// Fleet reports of any size for the HTML report's tests and benchmarks, built with the fleet's own
// builders and types (runReport, buildReport, TenantDns): the shape cannot drift from what a run
// writes. Deterministic (a seeded generator). Each fixture also says which tenants it gave each
// status — known here by construction, not by the page's tenantView — and the secrets its run
// "held" (masked in the report as a run masks them), for the tests to grep for.
import { buildReport } from "../fleet/drift/report";
import { SECRET } from "../fleet/drift/types";
import type { ResourceDrift, ShardDrift, UnmanagedObject } from "../fleet/drift/types";
import type { DnsRecordView, TenantDns } from "../fleet/dns/types";
import type { LeftoverLine, ResourceChange } from "../fleet/html/runChanges";
import { type FleetRunReport, runReport } from "../fleet/html/runReport";
import type { Status } from "../fleet/html/view";
import type { ShardResult } from "../fleet/workerLane";
import { zeroCounts } from "../fleet/stepCounts";
import { mulberry32 } from "./prng";

export interface ReportFixture {
  report: FleetRunReport;
  /** The tenants the fixture gave each status. */
  expected: Record<Status, string[]>;
  tenants: string[];
  /** Secret values the run's tenants hold (none may appear in a report). */
  secrets: string[];
}

export type FixtureCommand = "up" | "drift" | "dns";

const STARTED = Date.parse("2026-11-27T02:00:00.000Z");

export function reportFixture(o: {
  command: FixtureCommand;
  tenants: number;
  shardSize?: number;
  parallel?: number;
  seed?: number;
}): ReportFixture {
  const random = mulberry32(o.seed ?? 63);
  const shardSize = o.shardSize ?? 30;
  const parallel = o.parallel ?? 4;
  const tenants = Array.from({ length: o.tenants }, (_, i) => `tenant-${String(i + 1).padStart(5, "0")}`);
  const shards = Array.from({ length: Math.ceil(o.tenants / shardSize) }, (_, k) => ({
    stackName: `shard-${String(k + 1).padStart(3, "0")}`,
    tenants: tenants.slice(k * shardSize, (k + 1) * shardSize),
  }));
  const expected: Record<Status, string[]> = { changed: [], drifted: [], failed: [], dns: [], leftovers: [] };
  const secrets: string[] = [];
  const changes: ResourceChange[] = [];
  const leftovers: LeftoverLine[] = [];
  const drifts: ResourceDrift[] = [];
  const unmanaged: UnmanagedObject[] = [];
  const dns: TenantDns[] = [];
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");
  // The last shard of a big enough run fails as a whole (its worker died): each of its tenants fails.
  const deadShard = o.command === "up" && shards.length >= 3 ? shards[shards.length - 1]!.stackName : undefined;
  for (const shard of shards) {
    for (const t of shard.tenants) {
      secrets.push(`txm_live_${hex(40)}`, `smtp-${hex(24)}`, `whsec_${hex(32)}`);
      const r = random();
      if (shard.stackName === deadShard) {
        expected.failed.push(t);
        continue;
      }
      if (o.command === "up") {
        if (r < 0.1) {
          changes.push({ tenant: t, resource: `${t}-webhook-events`, kind: "Webhook", op: "update", fields: ["url"] });
          if (r < 0.03) changes.push({ tenant: t, resource: `${t}-route`, kind: "Route", op: "create", fields: [] });
          expected.changed.push(t);
        } else if (r < 0.12) {
          changes.push({
            tenant: t,
            resource: `${t}-smtp`,
            kind: "SmtpCredential",
            op: "failed",
            fields: ["password"],
            error: "error: POST /v2/accounts/…/smtp-credentials: 503 service unavailable",
          });
          expected.failed.push(t);
        }
        if (r > 0.99) {
          const id = `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
          leftovers.push({
            tenant: t,
            kind: "ApiKey",
            id,
            deleteLine: `DELETE https://api.txmail.test/v2/accounts/${hex(8)}/api-keys/${id}`,
            importLine: `pulumi import txmail:index:SubAccountApiKey ${t}-bootstrap-leftover ${id}`,
          });
          expected.leftovers.push(t);
        }
      } else if (o.command === "drift") {
        if (r < 0.06) {
          drifts.push(driftOf(t, r < 0.02 ? "deleted" : "changed"));
          expected.drifted.push(t);
        } else if (r < 0.07) {
          drifts.push({ ...driftOf(t, "failed"), error: "GET …/webhooks/…: 500 internal error" });
          expected.failed.push(t);
        }
        if (r > 0.985) {
          const id = `${hex(8)}-${hex(4)}`;
          unmanaged.push({
            kind: "ApiKey",
            tenant: t,
            id,
            title: "made by hand",
            importLine: `pulumi import txmail:index:SubAccountApiKey ${t}-key-${id} ${id}`,
          });
          expected.leftovers.push(t);
        }
      } else {
        const entry = dnsOf(t, shard.stackName, r, hex);
        dns.push(entry);
        if (entry.status === "unreadable") expected.failed.push(t);
        if (entry.status === "deleted" || (entry.status === "read" && entry.dnsValid !== true)) expected.dns.push(t);
      }
    }
  }
  const results: ShardResult[] = shards.map((s, k) => {
    const counts = zeroCounts();
    const mine = new Set(s.tenants);
    for (const c of changes.filter((x) => mine.has(x.tenant))) {
      if (c.op === "failed") counts.failed++;
      else if (c.op === "update") counts.updated++;
      else counts.created++;
    }
    counts.same = s.tenants.length * 6 - counts.updated - counts.failed;
    const dead = s.stackName === deadShard;
    return {
      shard: k + 1,
      stackName: s.stackName,
      ok: counts.failed === 0 && !dead,
      counts,
      durationMs: Math.round(20_000 + random() * 40_000),
      queuedMs: Math.round(Math.floor(k / parallel) * 45_000 + random() * 5_000),
      logFile: `.txmail-fleet/logs/${s.stackName}.${o.command}.log`,
      ...(dead ? { error: "worker exited (SIGKILL) without a result" } : {}),
      changes: changes.filter((x) => mine.has(x.tenant)),
      leftoverLines: leftovers.filter((x) => mine.has(x.tenant)),
    };
  });
  const drift =
    o.command === "drift"
      ? buildReport(
          new Date(STARTED),
          shards.map((s): ShardDrift => ({
            shard: s.stackName,
            tenants: s.tenants,
            drift: drifts.filter((d) => s.tenants.includes(d.tenant)),
            unmanaged: unmanaged.filter((u) => s.tenants.includes(u.tenant!)),
            notListed: [],
            managed: [],
            listCalls: s.tenants.length * 4,
          })),
          [],
          { unmanaged: [], notListed: [], listCalls: 2 },
        )
      : undefined;
  const ended = STARTED + Math.max(...results.map((r) => r.queuedMs! + r.durationMs));
  const report = runReport({
    command: o.command,
    started: STARTED,
    ended,
    fleet: { tenants: tenants.length, shards: shards.length },
    jobs: shards,
    results,
    exitCode: Object.values(expected).some((l) => l.length) ? 1 : 0,
    ...(drift ? { drift } : {}),
    ...(o.command === "dns" ? { dns } : {}),
  });
  for (const k of Object.keys(expected) as Status[]) expected[k] = [...new Set(expected[k])].sort();
  return { report, expected, tenants, secrets };
}

function driftOf(tenant: string, status: ResourceDrift["status"]): ResourceDrift {
  return {
    tenant,
    resource: `${tenant}-webhook-events`,
    kind: "Webhook",
    urn: `urn:pulumi:shard::txmail-fleet::txmail:index:Tenant$txmail:index:Webhook::${tenant}-webhook-events`,
    id: `wh-${tenant}`,
    status,
    fields:
      status === "changed"
        ? [
            { field: "url", recorded: `https://${tenant}.example.com/events`, service: "https://attacker.example/x" },
            { field: "secret", recorded: SECRET, service: SECRET },
          ]
        : [],
  };
}

function dnsOf(tenant: string, shard: string, r: number, hex: (n: number) => string): TenantDns {
  const domain = `mail.${tenant}.example.com`;
  const seen = r >= 0.08;
  const rec = (label: string, type: string, host: string, value: string, required: boolean): DnsRecordView => ({
    label,
    type,
    host,
    value,
    required,
    propagated: seen || !required,
  });
  const base = { tenant, shard, domain, lastCheckedAt: "2026-11-27T01:00:00.000Z" };
  if (r > 0.97) return { ...base, status: "no-domain", domain: null, dnsValid: null, lastCheckedAt: null, records: [] };
  if (r > 0.965) {
    return {
      ...base,
      status: "unreadable",
      dnsValid: null,
      lastCheckedAt: null,
      records: [],
      note: `${shard}: GET /v2/accounts/…/domains: 503`,
    };
  }
  if (r < 0.01) return { ...base, status: "deleted", dnsValid: null, lastCheckedAt: null, records: [] };
  return {
    ...base,
    status: "read",
    dnsValid: seen,
    records: [
      rec("DKIM", "CNAME", `txm1._domainkey.${domain}`, `txm1.${hex(12)}.dkim.txmail.test`, true),
      rec("Return-Path", "CNAME", `rp.${domain}`, "rp.txmail.test", true),
      rec("DMARC", "TXT", `_dmarc.${domain}`, "v=DMARC1; p=none;", false),
    ],
  };
}
