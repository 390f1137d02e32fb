// The tenant graph every benchmark floor declares, written once: per tenant a component, sub
// account → bootstrap key → domain → route, webhook, SMTP credential — the graph of
// bench/programs/tenants — made of the floor's own no-op resource class. Each floor differs only in
// that class (how its resources are served and stored), so that is what the floors measure.
"use strict";
const pulumi = require("@pulumi/pulumi");

/** Mirrors the Tenant component: one component parent per tenant, no outputs recorded. */
class Tenant extends pulumi.ComponentResource {
  constructor(t, Noop) {
    super("bench:index:Tenant", t, {});
    const parent = { parent: this };
    const sub = new Noop(t, { website: `${t}.example.com` }, parent);
    const key = new Noop(`${t}-bootstrap`, { subAccountId: sub.id, scopes: ["routes:write:all"] }, parent);
    const child = { parent: this, dependsOn: [key] };
    const domain = new Noop(`${t}-domain`, { domain: `mail.${t}.example.com`, key: key.id }, child);
    const after = { parent: this, dependsOn: [key, domain] };
    new Noop(`${t}-route`, { url: "https://example.com/in", key: key.id }, after);
    new Noop(`${t}-webhook`, { url: "https://example.com/hooks", key: key.id }, after);
    new Noop(`${t}-smtp`, { sandbox: false, key: key.id }, after);
    this.registerOutputs({});
  }
}

/** `count` tenants, tenant-0 to tenant-(count − 1), of `Noop` resources. */
function declareTenants(count, Noop) {
  for (let i = 0; i < count; i++) new Tenant(`tenant-${i}`, Noop);
}

module.exports = { declareTenants };
