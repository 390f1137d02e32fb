// The drift report in three forms: a table for the terminal, JSON (`--json`) and Markdown for a CI
// job summary (`--markdown FILE`), and the exit code a scheduler reads. Secret values never reach
// it: the findings carry SECRET in their place (findings.ts).
import { countsLine } from "../report";
import type { StepCounts } from "../stepCounts";
import type { FieldChange, NotListed, ResourceDrift, ShardDrift, UnmanagedObject } from "./types";

/** The exit codes of `txmail-fleet drift` (docs/guide/fleets.md#drift). */
export const DRIFT_EXIT = {
  /** Everything was checked and nothing differs. */
  clean: 0,
  /** Some shard or resource could not be checked (the report says which); what was checked is reported. */
  incomplete: 1,
  /** Bad usage (as every txmail-fleet command). */
  usage: 2,
  /** Everything was checked: drift, or objects no shard stack manages, were found. */
  found: 3,
} as const;

export interface RemediatedShard {
  shard: string;
  ok: boolean;
  counts: StepCounts;
  error?: string;
}

export interface DriftReport {
  /** When the check started (ISO 8601). */
  checkedAt: string;
  shardsChecked: number;
  tenantsChecked: number;
  /** Changed, deleted and failed resources, by shard, then tenant and resource name. */
  drift: ResourceDrift[];
  unmanaged: UnmanagedObject[];
  notListed: NotListed[];
  /** Shards that could not be checked at all. */
  unchecked: Array<{ shard: string; error: string }>;
  /** List requests the inventory made. */
  listCalls: number;
  /** `--remediate`: what each drifted shard's targeted `up` changed. */
  remediation?: RemediatedShard[];
  exitCode: number;
}

export function buildReport(
  checkedAt: Date,
  shards: readonly ShardDrift[],
  unchecked: Array<{ shard: string; error: string }>,
  account: { unmanaged: UnmanagedObject[]; notListed: NotListed[]; listCalls: number },
  remediation?: RemediatedShard[],
): DriftReport {
  const order = (d: ResourceDrift) => `${d.tenant}\u0000${d.resource}`;
  const drift = shards.flatMap((s) =>
    [...s.drift].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0)),
  );
  const unmanaged = [...account.unmanaged, ...shards.flatMap((s) => s.unmanaged)];
  const report: DriftReport = {
    checkedAt: checkedAt.toISOString(),
    shardsChecked: shards.length,
    tenantsChecked: shards.reduce((n, s) => n + s.tenants.length, 0),
    drift,
    unmanaged,
    notListed: [...account.notListed, ...shards.flatMap((s) => s.notListed)],
    unchecked,
    listCalls: account.listCalls + shards.reduce((n, s) => n + s.listCalls, 0),
    ...(remediation ? { remediation } : {}),
    exitCode: 0,
  };
  report.exitCode = exitCodeOf(report);
  return report;
}

function exitCodeOf(r: DriftReport): number {
  const failed = r.unchecked.length > 0 || r.drift.some((d) => d.status === "failed");
  const remediationFailed = r.remediation?.some((s) => !s.ok) ?? false;
  if (failed || remediationFailed) return DRIFT_EXIT.incomplete;
  // Remediated drift is gone; objects nobody manages are still there.
  const drifted = r.remediation ? false : r.drift.length > 0;
  return drifted || r.unmanaged.length > 0 ? DRIFT_EXIT.found : DRIFT_EXIT.clean;
}

const MAX_VALUE = 80;
function shown(v: unknown): string {
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}
const fieldText = (f: FieldChange) => `${f.field}: ${shown(f.recorded)} → ${shown(f.service)}`;

function what(d: ResourceDrift): string {
  if (d.status === "deleted") return "deleted at the service";
  if (d.status === "failed") return `not checked: ${d.error ?? "its refresh failed"}`;
  return d.fields.map(fieldText).join("; ");
}

function headline(r: DriftReport): string {
  const count = (s: ResourceDrift["status"]) => r.drift.filter((d) => d.status === s).length;
  return (
    `${r.tenantsChecked} tenants in ${r.shardsChecked} shards checked: ${count("changed")} changed, ` +
    `${count("deleted")} deleted at the service, ${count("failed")} not checked, ${r.unmanaged.length} unmanaged objects` +
    (r.unchecked.length ? `; ${r.unchecked.length} shards could not be checked` : "")
  );
}

/** Plain columns, as the fleet's summary table. */
function table(head: string[], rows: string[][]): string {
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ");
  return [fmt(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(fmt)].join("\n");
}

export function terminalReport(r: DriftReport): string {
  const out = [headline(r)];
  if (r.drift.length) {
    out.push(
      "",
      table(
        ["tenant", "resource", "kind", "status", "what"],
        r.drift.map((d) => [d.tenant || "-", d.resource, d.kind, d.status, what(d)]),
      ),
    );
  }
  if (r.unmanaged.length) {
    out.push(
      "",
      "objects no shard stack manages:",
      table(
        ["tenant", "kind", "id", "title", "adopt with", "policy"],
        r.unmanaged.map((u) => [u.tenant ?? "(account)", u.kind, u.id, u.title, u.importLine, u.policy ?? ""]),
      ),
    );
  }
  for (const g of notListedGroups(r.notListed)) out.push(`not listed: ${g}`);
  for (const u of r.unchecked) out.push(`not checked: ${u.shard}: ${u.error}`);
  for (const s of r.remediation ?? []) {
    out.push(`remediated ${s.shard}: ${s.ok ? "ok" : `FAILED — ${s.error ?? "see its log"}`}: ${countsLine(s.counts)}`);
  }
  out.push(`inventory: ${r.listCalls} list requests`, `exit ${r.exitCode}`);
  return out.join("\n");
}

/**
 * The families the inventory could not list, one line per kind and reason with the tenants it
 * concerns: least-privilege keys leave the same families out of most tenants (1 000 lines would
 * hide the one that matters). The JSON keeps one entry per tenant.
 */
export function notListedGroups(notListed: readonly NotListed[]): string[] {
  const groups = new Map<string, string[]>();
  for (const n of notListed) {
    const key = `${n.kind}\u0000${n.reason}`;
    groups.set(key, [...(groups.get(key) ?? []), n.tenant ?? "(account)"]);
  }
  return [...groups].map(([key, tenants]) => {
    const [kind, reason] = key.split("\u0000");
    const who =
      tenants.length <= 3 ? tenants.join(", ") : `${tenants.slice(0, 3).join(", ")} and ${tenants.length - 3} more`;
    return `${kind} of ${who}: ${reason}`;
  });
}

const md = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function markdownReport(r: DriftReport): string {
  const verdict = ["✅ no drift", "⚠️ not everything could be checked", "", "❌ drift found"][r.exitCode] ?? "";
  const out = [`## Tenant drift — ${verdict}`, "", `${headline(r)} (${r.checkedAt}).`];
  if (r.drift.length) {
    out.push("", "| tenant | resource | kind | status | what |", "|---|---|---|---|---|");
    for (const d of r.drift)
      out.push(`| ${md(d.tenant || "-")} | \`${md(d.resource)}\` | ${d.kind} | ${d.status} | ${md(what(d))} |`);
  }
  if (r.unmanaged.length) {
    out.push(
      "",
      "### Objects no shard stack manages",
      "",
      "| tenant | kind | id | title | adopt with | policy |",
      "|---|---|---|---|---|---|",
    );
    for (const u of r.unmanaged) {
      out.push(
        `| ${md(u.tenant ?? "(account)")} | ${u.kind} | \`${u.id}\` | ${md(u.title)} | \`${md(u.importLine)}\` | ${md(u.policy ?? "")} |`,
      );
    }
  }
  if (r.unchecked.length) {
    out.push("", "### Not checked", "");
    for (const u of r.unchecked) out.push(`- ${u.shard}: ${md(u.error)}`);
  }
  if (r.notListed.length) {
    out.push("", "### Not listed by the inventory (not a failure)", "");
    for (const g of notListedGroups(r.notListed)) out.push(`- ${md(g)}`);
  }
  if (r.remediation) {
    out.push("", "### Remediation", "");
    for (const s of r.remediation)
      out.push(`- ${s.shard}: ${s.ok ? "ok" : `failed — ${md(s.error ?? "see its log")}`}: ${countsLine(s.counts)}`);
  }
  return `${out.join("\n")}\n`;
}
