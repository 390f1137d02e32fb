// The emulator's control surface (counters, faults, clock, request log, state dump) for e2e tests and benches.
import type { RequestLogSnapshot, StateDump } from "../../emulator/control";
export { controlClient, type EmulatorControl } from "../../emulator/control";

/** Every live object in the service's state dump, with the Pulumi resource kind it corresponds to. */
export function serviceObjects(d: StateDump): Array<{ kind: string; id: string }> {
  return [
    ...d.accounts
      .filter((a) => a.parent_account_id !== null && a.status !== "deleted")
      .map((a) => ({ kind: "SubAccount", id: a.id })),
    ...d.api_keys.map((k) => ({
      kind: k.account_id === d.parent_account_id ? "ApiKey" : "SubAccountApiKey",
      id: k.id,
    })),
    ...d.domains.map((x) => ({ kind: "Domain", id: x.id })),
    ...d.routes.map((x) => ({ kind: "Route", id: x.id })),
    ...d.webhooks.map((x) => ({ kind: "Webhook", id: x.id })),
    ...d.smtp_credentials.map((x) => ({ kind: "SmtpCredential", id: x.id })),
    ...d.suppressions.map((x) => ({ kind: "Suppression", id: x.id })),
    // Every account has its owner as a member; only the others can be resources.
    ...d.members
      .filter((m) => !d.accounts.some((a) => a.id === m.account_id && a.owner_user_id === m.user_id))
      .map((m) => ({ kind: "AccountMember", id: m.user_id })),
  ];
}

/**
 * Arrival position (`seq`) of the one request with this method, exact path and status in the
 * emulator's request log: fails when there is none, more than one, or the log lost entries, so an
 * order asserted with it is never an accident of a missing or repeated request.
 */
export function seqOf(log: RequestLogSnapshot, method: string, path: string, status: number): number {
  if (log.dropped > 0) throw new Error(`the request log dropped ${log.dropped} entries; clear it closer to the step`);
  const hits = log.requests.filter((r) => r.method === method && r.path === path && r.status === status);
  if (hits.length !== 1) {
    const seen = log.requests.map((r) => `${r.seq} ${r.method} ${r.path} ${r.status}`).join("\n");
    throw new Error(`expected one ${method} ${path} answered ${status}, found ${hits.length}; the log:\n${seen}`);
  }
  return hits[0]!.seq;
}
