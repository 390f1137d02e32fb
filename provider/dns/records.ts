// A domain's DNS records as the service gives them, in the one shape the provider's outputs and
// txmail-fleet's reports share; which of them the service has not seen yet; and how long what is
// said of a record lives (the service's answer to a check, a published record in resolvers).
import { z } from "zod";
import { DnsRecord } from "../api";

/** A DNS record as the `dnsRecords` outputs give it: the service's record, with `content` as `value`. */
export const DnsRecordOutput = z
  .object({
    type: DnsRecord.shape.type,
    host: DnsRecord.shape.host,
    value: DnsRecord.shape.content,
    required: DnsRecord.shape.required,
    propagated: DnsRecord.shape.propagated,
    label: DnsRecord.shape.label,
  })
  .describe("A DNS record to publish for the domain, and whether the service's last check saw it.");

export type DnsRecordOut = z.infer<typeof DnsRecordOutput>;

/** The service record's `dns_records` as outputs. */
export function dnsRecordsOf(record: Record<string, unknown>): DnsRecordOut[] {
  return ((record.dns_records ?? []) as Array<Record<string, unknown>>).map((d) => ({
    type: String(d.type),
    host: String(d.host),
    value: String(d.content),
    required: d.required === true,
    propagated: d.propagated === true,
    ...(d.label !== undefined && d.label !== null ? { label: String(d.label) } : {}),
  }));
}

/** A record as a report gives it (txmail-fleet dns's JSON): every field there, `label` null when the service gives none. */
export interface DnsRecordReport {
  /** The service's short name for it (DKIM, Return-Path, …); null when it gives none. */
  label: string | null;
  /** CNAME, TXT, MX, … */
  type: string;
  /** The name to publish it under, as the service gives it. */
  host: string;
  /** What to publish: a CNAME's target, a TXT record's text (unquoted), … */
  value: string;
  /** Whether the domain's DNS is valid only with it. */
  required: boolean;
  /** Whether the service saw it in DNS at its last check. */
  propagated: boolean;
}

/** The service record's `dns_records` as a report gives them. */
export function reportedRecords(record: Record<string, unknown>): DnsRecordReport[] {
  return dnsRecordsOf(record).map((r) => ({
    label: r.label ?? null,
    type: r.type,
    host: r.host,
    value: r.value,
    required: r.required,
    propagated: r.propagated,
  }));
}

/** Which records must be seen: those the service requires for sending, or every record it lists. */
export type Wanted = "required" | "all";

/** The records of `wanted` the service's last check did not see, of records already in either shape. */
export function unseenOf<R extends { required: boolean; propagated: boolean }>(
  records: readonly R[],
  wanted: Wanted,
): R[] {
  return records.filter((d) => (wanted === "all" || d.required) && !d.propagated);
}

/** The records of `wanted` the service's last check did not see, from its record of the domain. */
export function unseen(record: Record<string, unknown>, wanted: Wanted): DnsRecordOut[] {
  return unseenOf(dnsRecordsOf(record), wanted);
}

/**
 * How long the service's answer to a check lives: it answers from a 60-second cache when asked again
 * sooner (docs/contract/endpoints/domains.md), so the next check that can see a change is this much later.
 */
export const CHECK_CACHE_MS = 60_000;

/** How long resolvers may keep a record published from a zone fragment (its `$TTL`): an hour, the usual default. */
export const RECORD_TTL_SECONDS = 3600;
