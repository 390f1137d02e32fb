// One Tenant as a new user writes it (README's first example without the allow list): a domain, a
// webhook and the default bootstrap key. Config `appKeyScopes` (JSON list) adds an app key.
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
const appKeyScopes = cfg.getObject<string[]>("appKeyScopes");

const acme = new txmail.Tenant("acme", {
  website: "acme.example.com",
  domain: { domain: "mail.acme.example.com" },
  webhooks: { events: { name: "events", url: "https://acme.example.com/hooks", onBounced: true } },
  ...(appKeyScopes ? { apiKeys: { app: { scopes: appKeyScopes, ipAllowList: ["203.0.113.10"] } } } : {}),
});
export const dnsRecords = acme.domain!.dnsRecords;
