// A domain's DNS as the service sees it, and the one wait loop that asks it to look again: shared
// by Domain (`waitForVerificationSeconds`, inside its create) and DomainVerification (its own
// resource, after the program has published the records). `check-dns` is a one-shot action (never
// retried by the client) that answers from the service's 60-second cache when asked sooner
// (docs/contract/endpoints/domains.md), so the loop asks once, then once per cache period.
import { z } from "zod";
import { DnsRecord, Domain, paths } from "../api";
import { isNotFound } from "../core/api";
import type { Ctx } from "../core/declaration";
import { progress } from "../core/progress";

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

/** Which records must be seen: those the service requires for sending, or every record it lists. */
export type Wanted = "required" | "all";

/** The records of `wanted` the service's last check did not see. */
export function unseen(record: Record<string, unknown>, wanted: Wanted): DnsRecordOut[] {
  return dnsRecordsOf(record).filter((d) => (wanted === "all" || d.required) && !d.propagated);
}

/**
 * How long the service's answer stays cached: the next check that can see a change. The service's
 * is 60 s; an emulator started with a shorter `--dns-cache-seconds` is matched with
 * TXMAIL_DNS_CHECK_INTERVAL_MS (read at each wait, so a test can set it for its provider process).
 */
export function checkIntervalMs(): number {
  // TXMAIL_DNS_POLL_MS: this setting's name before 0.2.0.
  const set = Number(process.env.TXMAIL_DNS_CHECK_INTERVAL_MS ?? process.env.TXMAIL_DNS_POLL_MS);
  return Number.isFinite(set) && set >= 100 ? set : 60_000;
}

/** One check's outcome: the domain as the service now reports it, or why it could not check. */
export type Checked =
  { kind: "seen"; record: Record<string, unknown> } | { kind: "unavailable"; reason: string } | { kind: "gone" };

/** Asks the service to check the domain's DNS: one attempt (the contract declares check-dns not retry-safe). */
export async function checkOnce({ api, conn }: Ctx, name: string): Promise<Checked> {
  try {
    const { data } = await api.post(paths.domainCheckDns(conn.accountId, name), undefined, Domain);
    return { kind: "seen", record: data };
  } catch (err) {
    if (isNotFound(err)) return { kind: "gone" };
    const status = (err as { status?: number }).status;
    // Managed DNS down (503), rate limited (429) or the network: no answer this time; the next
    // interval asks again. Anything else (403, 400) is the caller's to report.
    if (status === undefined || status === 429 || status >= 500)
      return { kind: "unavailable", reason: (err as Error).message };
    throw err;
  }
}

export interface WaitResult {
  /** The last answer the service gave (undefined when it never answered). */
  record?: Record<string, unknown>;
  /** Every wanted record seen. */
  verified: boolean;
  checks: number;
  /** Why the last check had no answer, when it had none. */
  unavailable?: string;
}

/**
 * Checks until every wanted record is seen or `deadline` (epoch ms) passes: once at once, then at
 * each expiry of the service's cache (counted from its `last_dns_check_at`, never longer than one
 * interval: the clocks may differ). Many waits in one process run side by side, so a program that
 * verifies many domains waits about one interval, not one per domain. A domain that no longer
 * exists throws.
 */
export async function waitForDns(
  ctx: Ctx,
  name: string,
  { deadline, wanted, urn }: { deadline: number; wanted: Wanted; urn?: string },
): Promise<WaitResult> {
  const result: WaitResult = { verified: false, checks: 0 };
  // Bounded twice: by the deadline, and by the checks a deadline of at most an hour allows.
  for (let n = 0; n < 4 * 3600; n++) {
    const checked = await checkOnce(ctx, name);
    result.checks++;
    if (checked.kind === "gone") throw new Error(`domain ${name}: no such domain in account ${ctx.conn.accountId}`);
    if (checked.kind === "unavailable") result.unavailable = checked.reason;
    else {
      result.record = checked.record;
      result.unavailable = undefined;
      const missing = unseen(checked.record, wanted);
      if (missing.length === 0) {
        result.verified = true;
        progress(`domain ${name}: DNS verified after ${result.checks} check(s)`, urn);
        return result;
      }
      progress(
        `domain ${name}: waiting for DNS (${missing.length} record(s) not seen yet: ${missing.map((d) => d.host).join(", ")})`,
        urn,
      );
    }
    const wait = nextWaitMs(checked);
    if (Date.now() + wait > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return result;
}

/** Until the service's cached answer expires: a full interval after a fresh check, less after an old one. */
function nextWaitMs(checked: Checked): number {
  const interval = checkIntervalMs();
  if (checked.kind !== "seen") return Math.min(interval, 5_000);
  const last = Date.parse(String(checked.record.last_dns_check_at ?? ""));
  const untilExpiry = Number.isFinite(last) ? last + interval - Date.now() : interval;
  return Math.max(interval / 10, Math.min(interval, untilExpiry));
}
