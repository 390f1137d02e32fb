// Asking the service to check a domain's DNS: the one request (also txmail-fleet dns --check-dns's),
// its outcome, and the one wait loop that asks again — shared by Domain (`waitForVerificationSeconds`,
// inside its create) and DomainVerification (its own resource, after the program has published the
// records). `check-dns` is a one-shot action (never retried by the client) that answers from the
// service's 60-second cache when asked sooner (docs/contract/endpoints/domains.md), so the loop asks
// once, then once per cache period.
import { Domain, paths } from "../api";
import { type Api, isNotFound } from "../core/api";
import type { Ctx } from "../core/declaration";
import { progress } from "../core/progress";
import { CHECK_CACHE_MS, type Wanted, unseen } from "./records";

/**
 * How long the service's answer stays cached: the next check that can see a change. The service's
 * is 60 s; an emulator started with a shorter `--dns-cache-seconds` is matched with
 * TXMAIL_DNS_CHECK_INTERVAL_MS (read at each wait, so a test can set it for its provider process).
 */
export function checkIntervalMs(): number {
  // TXMAIL_DNS_POLL_MS: this setting's name before 0.2.0.
  const set = Number(process.env.TXMAIL_DNS_CHECK_INTERVAL_MS ?? process.env.TXMAIL_DNS_POLL_MS);
  return Number.isFinite(set) && set >= 100 ? set : CHECK_CACHE_MS;
}

/** One check's outcome: the domain as the service now reports it, or why it could not check. */
export type Checked =
  { kind: "seen"; record: Record<string, unknown> } | { kind: "unavailable"; reason: string } | { kind: "gone" };

/**
 * Asks the service to check the domain's DNS (`accountId`'s domain `name`): one attempt, as the
 * contract declares check-dns not retry-safe. The domain as the service now reports it.
 */
export async function requestCheck(api: Pick<Api, "post">, accountId: string, name: string): Promise<Domain> {
  return (await api.post(paths.domainCheckDns(accountId, name), undefined, Domain)).data;
}

/** One check, its failures told apart: the domain gone, or no answer this time (ask again later). */
export async function checkOnce({ api, conn }: Ctx, name: string): Promise<Checked> {
  try {
    return { kind: "seen", record: await requestCheck(api, conn.accountId, name) };
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
