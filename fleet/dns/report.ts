// The `txmail-fleet dns` report for people (a line per domain, then one table of records) and its
// exit code, which follows drift's convention (docs/guide/fleets.md#handing-dns-to-another-team).
// The JSON form is the tenants themselves (types.ts); the zone-file form is zone.ts.
import { unseenOf } from "../../provider/dns";
import type { DnsRecordView, TenantDns } from "./types";

export const DNS_EXIT = {
  /** Everything selected was read, and every domain read is verified. */
  verified: 0,
  /** A shard's state or a tenant's domain could not be read, or a --check-dns failed; the rest is reported. */
  incomplete: 1,
  /** Bad usage (as every txmail-fleet command). */
  usage: 2,
  /** Everything was read: a domain's required records are not all seen by the service, or a domain is gone. */
  missing: 3,
} as const;

/** The required records the service has not seen (at its last check). */
export const missingRecords = (t: TenantDns): DnsRecordView[] => unseenOf(t.records, "required");

/** Verified: read, valid, and no required record unseen (the service's flag and its records agree). */
export const isVerified = (t: TenantDns): boolean =>
  t.status === "read" && t.dnsValid === true && missingRecords(t).length === 0;

export function dnsExitCode(tenants: readonly TenantDns[]): number {
  const checkFailed = tenants.some((t) => t.checkDns?.ok === false);
  if (checkFailed || tenants.some((t) => t.status === "unreadable")) return DNS_EXIT.incomplete;
  const missing = tenants.some((t) => (t.status === "read" && !isVerified(t)) || t.status === "deleted");
  return missing ? DNS_EXIT.missing : DNS_EXIT.verified;
}

/** The tenants with only their required records (`--required-only`); what is verified is unchanged. */
export function requiredOnly(tenants: readonly TenantDns[]): TenantDns[] {
  return tenants.map((t) => ({ ...t, records: t.records.filter((r) => r.required) }));
}

export function dnsHeadline(tenants: readonly TenantDns[]): string {
  const read = tenants.filter((t) => t.status === "read");
  const verified = read.filter(isVerified).length;
  const count = (s: TenantDns["status"]) => tenants.filter((t) => t.status === s).length;
  const shards = new Set(tenants.map((t) => t.shard)).size;
  const parts = [
    `${plural(verified, "domain")} verified`,
    `${read.length - verified} not verified`,
    count("deleted") && `${count("deleted")} deleted at the service`,
    `${plural(count("no-domain"), "tenant")} without a domain`,
    count("not-applied") && `${count("not-applied")} not applied yet`,
    count("unreadable") && `${count("unreadable")} not read`,
  ].filter(Boolean);
  return `${plural(tenants.length, "tenant")} in ${plural(shards, "shard")}: ${parts.join(", ")}`;
}

/** One line per tenant: its domain, whether it is verified and when the service last checked. */
export function domainLine(t: TenantDns): string {
  const who = `${t.tenant} (${t.shard})`;
  const note = t.note ? ` — ${t.note}` : "";
  const check = t.checkDns?.ok === false ? `; check-dns failed: ${t.checkDns.error}` : "";
  switch (t.status) {
    case "no-domain":
      return `${who}: no domain${note}`;
    case "not-applied":
      return `${who}: not applied${note}`;
    case "read": {
      const missing = missingRecords(t).map((r) => r.label ?? `${r.type} ${r.host}`);
      return (
        `${who} ${t.domain}: verified ${isVerified(t) ? "yes" : "no"}, last checked ${t.lastCheckedAt ?? "never"}` +
        (missing.length ? `; required, not seen: ${missing.join(", ")}` : "") +
        (t.checkDns?.ok ? "; checked now (--check-dns)" : "") +
        check +
        note
      );
    }
    default:
      return `${`${who} ${t.domain ?? ""}`.trimEnd()}: ${t.status === "deleted" ? "deleted at the service" : "not read"}${check}${note}`;
  }
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const yesNo = (b: boolean) => (b ? "yes" : "no");

/** What a tenant without records shows in the table's domain column. */
const STAND_IN: Record<Exclude<TenantDns["status"], "read">, string> = {
  "no-domain": "no domain",
  "not-applied": "(not applied)",
  deleted: "(deleted at the service)",
  unreadable: "(not read)",
};

/**
 * Every record, one row each, the value last and unwrapped (a DKIM key's TXT is hundreds of
 * characters: the other columns stay aligned, and a row copies whole). A tenant without records has
 * one row saying why.
 */
export function recordsTable(tenants: readonly TenantDns[]): string {
  const head = ["tenant", "domain", "label", "type", "host", "required", "propagated", "value"];
  const rows = tenants.flatMap((t): string[][] => {
    if (t.records.length === 0) {
      const why = t.status === "read" ? "(no records)" : STAND_IN[t.status];
      return [
        [t.tenant, t.status === "read" || t.status === "deleted" ? `${t.domain} ${why}` : why, "", "", "", "", "", ""],
      ];
    }
    return t.records.map((r) => [
      t.tenant,
      t.domain ?? "",
      r.label ?? "-",
      r.type,
      r.host,
      yesNo(r.required),
      yesNo(r.propagated),
      r.value,
    ]);
  });
  const widths = head.map((_, i) => Math.max(...[head, ...rows].map((r) => r[i]!.length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  // The value's rule is as long as its heading: a DKIM key's length of dashes would only wrap.
  const rule = widths.map((w, i) => "-".repeat(i === head.length - 1 ? head[i]!.length : w));
  return [fmt(head), fmt(rule), ...rows.map(fmt)].join("\n");
}

/** The report on the terminal: the headline, a line per tenant, the records, the exit code. */
export function terminalDnsReport(tenants: readonly TenantDns[], exitCode: number): string {
  return [
    dnsHeadline(tenants),
    "",
    ...tenants.map(domainLine),
    "",
    "records (propagated: seen by the service at its last check):",
    recordsTable(tenants),
    `exit ${exitCode}`,
  ].join("\n");
}
