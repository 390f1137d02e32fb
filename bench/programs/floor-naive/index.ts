// The naive engine floor, kept for comparison: the tenants graph (bench/programs/tenants) made of
// plain no-op dynamic resources as a user would first write them — the provider an object literal
// that Pulumi serializes by value into every resource's state (~1.2 KB, inputs and outputs), and
// registration with Pulumi's per-property debug stack traces. Both are costs the real program has
// removed, so the honest floor is bench/programs/floor; this one shows what those tricks are worth.
import * as pulumi from "@pulumi/pulumi";

const count = new pulumi.Config().requireNumber("tenants");

const noop: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: `${inputs.name}-${Date.now()}`, outs: inputs };
  },
  async diff() {
    return { changes: false };
  },
  async read(id, props) {
    return { id, props };
  },
  async delete() {},
};

class Noop extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions) {
    super(noop, name, { name, ...props }, opts, "bench", "Noop");
  }
}

/** Mirrors the Tenant component: one component parent per tenant. */
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
