import * as txmail from "pulumi-txmail";

// One customer's email tenant: a sub account, the key its objects are managed with, a sending
// domain, a key for the customer's application and an event webhook.
const acme = new txmail.Tenant("acme", {
  website: "acme.example.com",
  domain: { domain: "mail.acme.example.com" },
  // Who may use the management key: the machine running `pulumi up` (your CI runners' addresses).
  bootstrapKey: { ipAllowList: ["203.0.113.0/24"] },
  apiKeys: { app: { ipAllowList: ["198.51.100.7"] } }, // sends from mail.acme.example.com
  webhooks: { events: { name: "events", url: "https://acme.example.com/hooks/email", onBounced: true } },
});

export const dnsRecords = acme.domain!.dnsRecords; // feed these to your DNS provider
export const appKey = acme.apiKeys.app!.secretKey; // a Pulumi secret
