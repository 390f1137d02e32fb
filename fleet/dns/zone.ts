// `txmail-fleet dns --zone`: the tenants' records as a BIND zone-file fragment (RFC 1035 master file
// syntax) that a DNS team loads or `$INCLUDE`s as it is. Every name is absolute (a trailing dot), so
// the fragment means the same in any zone and under any $ORIGIN; each tenant and record is named in a
// comment, with whether the record is required and whether the service has seen it. Tenants without
// a domain are left out; a tenant whose records could not be had is a comment saying why, so nothing
// is silently missing. Anything the service gave that would not load (a host that is not a DNS name)
// is left out with a comment rather than written: the fragment always loads.
import { RECORD_TTL_SECONDS, TXT_STRING_MAX, txtStrings } from "../../provider/dns";
export { TXT_STRING_MAX, txtStrings };
import { isVerified } from "./report";
import type { DnsRecordView, TenantDns } from "./types";

/** The fragment's `$TTL` (a DNS team may change it as it loads the file). */
export const ZONE_TTL = RECORD_TTL_SECONDS;

/** The most octets one character-string of a TXT record holds (RFC 1035 §3.3). */

export function zoneFragment(tenants: readonly TenantDns[], o: { readAt: Date; requiredOnly: boolean }): string {
  const out = [
    `; txmail-fleet dns --zone: the DNS records of the tenants' sending domains, read from the service at ${o.readAt.toISOString()}.`,
    o.requiredOnly
      ? "; Required records only (--required-only): the optional ones are left out."
      : "; Required and optional records (--required-only leaves the optional ones out).",
    "; Names are absolute: load it into the zones that hold these domains, or $INCLUDE it there.",
    `$TTL ${ZONE_TTL}`,
  ];
  for (const t of tenants) {
    if (t.status === "no-domain") continue;
    out.push("", comment(`tenant ${t.tenant} (${t.shard}), ${tenantState(t)}`));
    for (const r of t.records) {
      if (o.requiredOnly && !r.required) continue;
      const seen = r.propagated ? "seen by the service" : "not seen by the service yet";
      const what = `${r.label ?? r.type}: ${r.required ? "required" : "optional"}, ${seen}`;
      const line = recordLine(r, t.domain ?? "");
      if (typeof line === "string") out.push(comment(what), line);
      else out.push(comment(`${what}; not written: ${line.problem} (${r.type} ${r.host} ${r.value})`));
    }
  }
  return `${out.join("\n")}\n`;
}

function tenantState(t: TenantDns): string {
  const note = t.note ? ` (${t.note})` : "";
  switch (t.status) {
    case "read": {
      const verified = isVerified(t) ? "verified" : "not verified";
      return `domain ${t.domain}: ${verified}, last checked ${t.lastCheckedAt ?? "never"}${note}`;
    }
    case "not-applied":
      return `no records: not applied${note}`;
    case "deleted":
      return `domain ${t.domain}: no records: deleted at the service${note}`;
    default:
      return `${t.domain ? `domain ${t.domain}: ` : ""}no records: not read${note}`;
  }
}

/** A comment line; a line break in what the service sent would end the comment and break the file. */
const comment = (text: string) => `; ${text.replace(/\p{Cc}/gu, " ")}`;

/** A DNS name's labels: letters, digits, '-' and '_' (`_dmarc`, `_domainkey`), an optional leading `*`. */
const DNS_NAME = /^(\*\.)?([A-Za-z0-9_-]{1,63}\.)*[A-Za-z0-9_-]{1,63}\.?$/;
const isDnsName = (s: string) => s.length <= 254 && DNS_NAME.test(s);

/** The record as one zone-file line, or why it cannot be written as one. */
export function recordLine(r: DnsRecordView, domain: string): string | { problem: string } {
  const type = r.type.trim().toUpperCase();
  if (!/^[A-Z][A-Z0-9]*$/.test(type)) return { problem: "its type is not a record type" };
  const host = r.host.trim();
  if (host !== "@" && !isDnsName(host)) return { problem: "its host is not a DNS name" };
  const data = rdata(type, r.value.trim());
  if (typeof data !== "string") return data;
  return `${absoluteName(host, domain)} IN ${type} ${data}`;
}

/**
 * The host as an absolute name. The service gives full names (`_dmarc.mail.example.com`); a name
 * that does not end in the domain is taken as relative to it (`_dmarc` → `_dmarc.mail.example.com.`),
 * as DNS providers' consoles read a record's name, and `@` as the domain itself.
 */
export function absoluteName(host: string, domain: string): string {
  if (host.endsWith(".")) return host;
  if (host === "@") return `${domain}.`;
  const lower = host.toLowerCase();
  const apex = domain.toLowerCase();
  return lower === apex || lower.endsWith(`.${apex}`) ? `${host}.` : `${host}.${domain}.`;
}

/** A target name: the service gives full names (`rp.txmail.test`), never relative to the tenant's domain. */
const target = (name: string) => (name.endsWith(".") ? name : `${name}.`);

function rdata(type: string, value: string): string | { problem: string } {
  switch (type) {
    case "CNAME":
    case "NS":
    case "PTR":
    case "DNAME":
      return isDnsName(value) ? target(value) : { problem: "its value is not a DNS name" };
    case "MX": {
      const m = /^(\d{1,5})\s+(\S+)$/.exec(value);
      return m && Number(m[1]) <= 65535 && isDnsName(m[2]!)
        ? `${m[1]} ${target(m[2]!)}`
        : { problem: "its value is not '<preference> <name>'" };
    }
    case "TXT":
    case "SPF":
      return txtStrings(value);
    default:
      // Written as given when it cannot change the line's meaning (no comment, quote, group or escape).
      return /^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(value) && !/[;"()\\]/.test(value)
        ? value
        : { problem: "its value cannot be written as given" };
  }
}
