// The native engine floor for the tenants benchmark: the graph of bench/programs/floor (per tenant: a
// component, sub account → bootstrap key → domain → route, webhook, SMTP credential) made of custom
// resources `txmailfloor:index:Noop` served by a plugin that does nothing
// (bench/programs/noop-native-provider) — over the very gRPC server the txmail plugin runs
// (native/server.ts), so it gets every trick the real native provider gets. Resources register with
// `Error.stackTraceLimit = 0`, as sdk/nodejs/internal/txmailResource.ts does. What this costs is the engine's
// and the plugin server's own overhead; the native real run's excess over it is what our resources cost.
import * as pulumi from "@pulumi/pulumi";

const count = new pulumi.Config().requireNumber("tenants");

class Noop extends pulumi.CustomResource {
  declare readonly name: pulumi.Output<string>;
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super("txmailfloor:index:Noop", name, { name, ...props }, opts);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/** Mirrors the Tenant component: one component parent per tenant, no outputs recorded. */
class Tenant extends pulumi.ComponentResource {
  constructor(t: string) {
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

for (let i = 0; i < count; i++) new Tenant(`tenant-${i}`);
