// N tenants, 6 resources each (sub account, bootstrap key, domain, route, webhook, SMTP credential),
// the graph bench/programs/floor mirrors with no-op resources.
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const count = new pulumi.Config().requireNumber("tenants");

for (let i = 0; i < count; i++) {
  const t = `tenant-${i}`;
  new txmail.Tenant(t, {
    website: `${t}.example.com`,
    bootstrapKey: { ipAllowList: ["127.0.0.1"] },
    domain: { domain: `mail.${t}.example.com` },
    routes: { support: { name: "support", url: "https://example.com/in", recipient: `support@mail.${t}.example.com` } },
    webhooks: { events: { name: "events", url: "https://example.com/hooks", onBounced: true } },
    smtpCredentials: { app: { name: "app" } },
  });
}
