// The emulator's control surface (counters, faults, clock, state dump) for e2e tests and benches.
import type { StateDump } from "../../emulator/control";
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
  ];
}
