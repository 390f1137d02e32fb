// Drift from a refresh preview's engine events (fleet/drift/findings.ts), on events shaped as the
// engine sends them (recorded from a real `previewRefresh` of a shard against the emulator).
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { changedFields, comparedFields, DriftCollector } from "../../../../fleet/drift/findings";
import { SECRET } from "../../../../fleet/drift/types";

const SIG = "4dabf18193072939515e22adb298388d";
const secret = { [SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "[secret]" };
const TENANT = "urn:pulumi:shard-001::txmail-fleet::txmail:index:Tenant::acme";
const urnOf = (type: string, name: string) =>
  `urn:pulumi:shard-001::txmail-fleet::txmail:index:Tenant$${type}::${name}`;

function state(type: string, name: string, id: string, outputs: Record<string, unknown>) {
  return { type, urn: urnOf(type, name), id, parent: TENANT, inputs: {}, outputs, custom: true, provider: "" };
}

/** The two events of one resource's refresh: its start (what the stack recorded) and its end. */
function refreshed(
  type: string,
  name: string,
  op: string,
  recorded: Record<string, unknown>,
  service?: Record<string, unknown>,
): EngineEvent[] {
  const old = state(type, name, `${name}-id`, recorded);
  const now = service && state(type, name, `${name}-id`, service);
  return [
    {
      sequence: 0,
      timestamp: 0,
      resourcePreEvent: { metadata: { op: "refresh", urn: old.urn, type, old, new: old, provider: "" } },
    },
    {
      sequence: 1,
      timestamp: 0,
      resOutputsEvent: { metadata: { op, urn: old.urn, type, old, new: now, provider: "" } },
    },
  ] as unknown as EngineEvent[];
}

const hook = { name: "events", url: "https://acme.example.com/ev", onDelivered: true, successCount: 0, secret };

function collect(events: EngineEvent[]): DriftCollector {
  const c = new DriftCollector();
  for (const e of events) c.add(e);
  return c;
}

describe("drift from a refresh preview's events", () => {
  it("compares the fields the kind's declaration sends to the service, not what the service moves itself", () => {
    expect(comparedFields("Webhook")).toEqual(expect.arrayContaining(["url", "name", "onDelivered", "domains"]));
    expect(comparedFields("Webhook")).not.toContain("successCount");
    expect(comparedFields("Webhook")).not.toContain("secret");
    // Write-only secrets are kept as a digest the service never returns.
    expect(comparedFields("Domain")).not.toContain("dkimPrivateKey");
  });

  it("reports a changed field with both values, and nothing for a counter the service moved", () => {
    const c = collect(
      refreshed("txmail:index:Webhook", "acme-webhook-events", "update", hook, {
        ...hook,
        url: "https://evil.example.com/x",
        successCount: 5,
      }),
    );
    expect(c.drift).toEqual([
      {
        tenant: "acme",
        resource: "acme-webhook-events",
        kind: "Webhook",
        urn: urnOf("txmail:index:Webhook", "acme-webhook-events"),
        id: "acme-webhook-events-id",
        status: "changed",
        fields: [{ field: "url", recorded: "https://acme.example.com/ev", service: "https://evil.example.com/x" }],
      },
    ]);
  });

  it("finds a change the engine calls `same` (a field the program leaves to the service)", () => {
    const sub = { name: "acme", website: "acme.example.com", monthlyCredit: 0, domainCount: 0 };
    const c = collect(
      refreshed("pulumi-nodejs:dynamic/txmail:SubAccount", "acme", "same", sub, {
        ...sub,
        monthlyCredit: 777,
        domainCount: 1,
      }),
    );
    expect(c.drift.map((d) => [d.kind, d.status, d.fields])).toEqual([
      ["SubAccount", "changed", [{ field: "monthlyCredit", recorded: 0, service: 777 }]],
    ]);
    expect(c.subAccounts.get("acme")).toEqual({ id: "acme-id" });
  });

  it("reports an object deleted at the service, and counts it as managed", () => {
    const c = collect(refreshed("txmail:index:Route", "acme-route-sales", "delete", { name: "sales" }));
    expect(c.drift.map((d) => [d.resource, d.status])).toEqual([["acme-route-sales", "deleted"]]);
    expect(c.managed).toEqual([{ tenant: "acme", kind: "Route", id: "acme-route-sales-id" }]);
  });

  it("reports a verification the service no longer sees as changed, and not one that was already unsettled", () => {
    const seen = { domain: "mail.acme.example.com", recordsToVerify: "required", verified: true, dnsValid: true };
    const gone = { ...seen, verified: false, dnsValid: false };
    expect(changedFields("DomainVerification", seen, gone)).toEqual([
      { field: "verified", recorded: true, service: false },
    ]);
    expect(changedFields("DomainVerification", gone, gone)).toEqual([]);
    expect(changedFields("DomainVerification", gone, seen)).toEqual([]);
  });

  it("a secret field is never shown: only that it changed", () => {
    expect(changedFields("SubAccountApiKey", { label: secret }, { label: "plain now" })).toEqual([
      { field: "label", recorded: SECRET, service: SECRET },
    ]);
    // Masked on both sides, the events cannot tell: not reported.
    expect(changedFields("SubAccountApiKey", { label: secret }, { label: secret })).toEqual([]);
  });

  it("reports a resource whose refresh failed, with the error, and nothing for the engine's own resources", () => {
    const [started] = refreshed("txmail:index:Domain", "acme-domain", "same", { domain: "mail.acme.example.com" });
    const urn = urnOf("txmail:index:Domain", "acme-domain");
    const c = collect([
      started!,
      {
        sequence: 2,
        timestamp: 0,
        diagnosticEvent: { urn, severity: "error", message: "HTTP 401: the key was revoked\nmore", color: "never" },
      },
      ...refreshed("pulumi:pulumi:Stack", "txmail-fleet-shard-001", "same", {}, {}),
    ] as EngineEvent[]);
    expect(c.failures()).toEqual([
      expect.objectContaining({
        resource: "acme-domain",
        kind: "Domain",
        tenant: "acme",
        status: "failed",
        error: "HTTP 401: the key was revoked",
      }),
    ]);
    expect(c.domains.get("acme")).toEqual(["mail.acme.example.com"]);
    expect(c.managed.map((m) => m.kind)).toEqual(["Domain"]);
  });

  it("keeps each tenant's bootstrap key scopes, for the inventory to ask only what the key may list", () => {
    const scopes = ["domains:read", "routes:read:mail.acme.example.com"];
    const c = collect([
      ...refreshed("txmail:index:SubAccountApiKey", "acme-bootstrap", "same", { label: "acme bootstrap", scopes }, {}),
      ...refreshed("txmail:index:SubAccountApiKey", "acme-app", "same", { label: "acme app", scopes: ["x"] }, {}),
    ]);
    expect([...c.bootstrapScopes]).toEqual([["acme", scopes]]);
  });
});
