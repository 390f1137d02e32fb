// One of every create-capable resource, plus a Tenant component with its own objects: what the
// reliability suite injects faults into. `label` changes an updatable field of every kind.
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
const label = cfg.get("label") ?? "v1";

const sub = new txmail.SubAccount("sub", { name: "Reliability", website: "rel.example.com" });
new txmail.SubAccountApiKey("subkey", { subAccountId: sub.id, label: `sub-${label}`, scopes: ["messages:send:all"] });
new txmail.ApiKey("key", { label: `key-${label}`, scopes: ["routes:read:all"] });
new txmail.Domain("domain", { domain: "mail.rel.example.com" });
new txmail.Route("route", { name: `route-${label}`, url: "https://rel.example.com/in", recipient: "" });
new txmail.Webhook("webhook", { name: `hook-${label}`, url: "https://rel.example.com/hooks", onBounced: true });
new txmail.SmtpCredential("smtp", { name: "crm", sandbox: false });

new txmail.Tenant("tenant", {
  displayName: "Tenant Co",
  website: "tenant.example.com",
  bootstrapKey: { ipAllowList: ["127.0.0.1"] },
  apiKeys: { app: { scopes: ["messages:send:all"] } },
  domain: { domain: "mail.tenant.example.com" },
  routes: {
    support: { name: "support", url: "https://tenant.example.com/in", recipient: "support@mail.tenant.example.com" },
  },
  webhooks: { events: { name: "events", url: "https://tenant.example.com/hooks", onDelivered: true } },
  smtpCredentials: { legacy: { name: "legacy", sandbox: false } },
});
