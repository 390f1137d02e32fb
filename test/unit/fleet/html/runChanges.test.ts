import type { EngineEvent } from "@pulumi/pulumi/automation";
import { ChangeCollector } from "../../../../fleet/html/runChanges";
import { leftoverMessage } from "../../../../provider/core/leftovers";

const TENANT = "urn:pulumi:shard-001::txmail-fleet::txmail:index:Tenant::acme";
const urnOf = (type: string, name: string) =>
  `urn:pulumi:shard-001::txmail-fleet::txmail:index:Tenant$${type}::${name}`;
const meta = (op: string, type: string, name: string, diffs?: string[]) =>
  ({
    op,
    urn: urnOf(type, name),
    type,
    provider: "",
    diffs,
    new: { type, urn: urnOf(type, name), parent: TENANT },
  }) as never;
const ev = (e: Partial<EngineEvent>) => ({ sequence: 1, timestamp: 1, ...e }) as EngineEvent;

describe("a run's changes per resource (the HTML report's)", () => {
  it("names the tenant, the step and the changed fields, never a value; skips unchanged and engine resources", () => {
    const c = new ChangeCollector(false);
    for (const [op, type, name, diffs] of [
      ["update", "txmail:index:Webhook", "acme-webhook-events", ["url", "secret"]],
      ["same", "txmail:index:Domain", "acme-domain", undefined],
      ["create", "pulumi:pulumi:Stack", "s", undefined],
      ["refresh", "txmail:index:Route", "acme-route", []],
    ] as const) {
      c.add(ev({ resourcePreEvent: { metadata: meta(op, type, name) } }));
      c.add(ev({ resOutputsEvent: { metadata: meta(op, type, name, diffs as string[] | undefined) } }));
    }
    expect(c.changes()).toEqual([
      { tenant: "acme", resource: "acme-webhook-events", kind: "Webhook", op: "update", fields: ["secret", "url"] },
    ]);
  });

  it("a preview counts the planned steps; a failed step keeps its error", () => {
    const c = new ChangeCollector(true);
    const m = meta("create", "txmail:index:SmtpCredential", "acme-smtp");
    c.add(ev({ resourcePreEvent: { metadata: m } }));
    c.add(ev({ resOpFailedEvent: { metadata: m, status: 0, steps: 0 } }));
    c.add(
      ev({
        diagnosticEvent: {
          urn: urnOf("txmail:index:SmtpCredential", "acme-smtp"),
          severity: "error",
          message: "503 service unavailable\nmore",
          color: "never",
        } as never,
      }),
    );
    expect(c.changes()).toEqual([
      {
        tenant: "acme",
        resource: "acme-smtp",
        kind: "SmtpCredential",
        op: "failed",
        fields: [],
        error: "503 service unavailable",
      },
    ]);
  });

  it("reads a likely leftover's DELETE and pulumi import lines from the provider's warning", () => {
    const c = new ChangeCollector(false);
    const urn = urnOf("txmail:index:SubAccountApiKey", "acme-bootstrap");
    c.add(ev({ resourcePreEvent: { metadata: meta("create", "txmail:index:SubAccountApiKey", "acme-bootstrap") } }));
    const message = leftoverMessage(
      { kind: "ApiKey", id: "k-1", importId: "acc/k-1", url: "https://api.txmail.test/v2/accounts/acc/api-keys/k-1" },
      "no idempotency record",
      urn,
    );
    c.add(ev({ diagnosticEvent: { urn, severity: "warning", message, color: "never" } as never }));
    expect(c.leftoverLines()).toEqual([
      {
        tenant: "acme",
        kind: "ApiKey",
        id: "k-1",
        deleteLine: "DELETE https://api.txmail.test/v2/accounts/acc/api-keys/k-1",
        importLine: "pulumi import txmail:index:SubAccountApiKey acme-bootstrap-leftover acc/k-1",
      },
    ]);
  });
});
