// What Construct makes of a Tenant's inputs before building it: the program's values, and a clear
// error naming the field when a part whose entries decide which resources exist is not known.
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { tenantArgs } from "../../../native/tenantArgs";

const none = new Map<string, string[]>();

describe("tenantArgs", () => {
  it("passes a tenant's declaration through as TenantArgs", () => {
    const raw = {
      website: "acme.example.com",
      domain: { domain: "mail.acme.example.com" },
      routes: { support: { name: "support", url: "https://acme.example.com/in" } },
    };
    expect(tenantArgs("acme", raw, none)).toEqual(raw);
  });

  it("names a missing website", () => {
    expect(() => tenantArgs("acme", { displayName: "Acme" }, none)).toThrow(
      "txmail:index:Tenant 'acme': website is required",
    );
  });

  it.each([
    ["routes", { routes: rpc.unknownValue }],
    ["domain", { domain: rpc.unknownValue }],
    ["webhooks.events", { webhooks: { events: rpc.unknownValue } }],
    ["apiKeys", { apiKeys: ["app"] }],
  ])("names %s when its shape is not a known object", (field, raw) => {
    expect(() => tenantArgs("acme", { website: "acme.example.com", ...raw }, none)).toThrow(
      `txmail:index:Tenant 'acme': ${field} must be an object known when the program runs`,
    );
  });
});
