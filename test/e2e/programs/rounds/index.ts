// `tenants` tenants of 5 objects each (sub account, bootstrap key, route, webhook, SMTP credential).
// Each `round` changes every tenant: the webhook's URL (an update in place) and the SMTP
// credential's name (a replacement); fewer tenants than the last run deletes the rest. `variant`
// changes only fields updated in place (the webhook's URL, the sub account's website).
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
const count = cfg.requireNumber("tenants");
const round = cfg.requireNumber("round");
/** Names the tenants (and so their sub accounts) apart from other stacks' on the same account. */
const prefix = cfg.get("prefix") ?? "";
const variant = cfg.get("variant") ?? "";

for (let i = 0; i < count; i++) {
  const t = `${prefix}tenant-${i}`;
  new txmail.Tenant(t, {
    website: `${t}${variant}.example.com`,
    bootstrapKey: { ipAllowList: ["127.0.0.1"] },
    routes: { support: { name: "support", url: "https://example.com/in", recipient: `support@${t}.example.com` } },
    webhooks: { events: { name: "events", url: `https://example.com/hooks/${round}${variant}`, onBounced: true } },
    smtpCredentials: { app: { name: `app-${round}` } },
  });
}
