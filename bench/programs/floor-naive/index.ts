// The naive engine floor, kept for comparison: the tenants graph (bench/programs/tenants) made of
// plain no-op dynamic resources as a user would first write them — the provider an object literal
// that Pulumi serializes by value into every resource's state (~1.2 KB, inputs and outputs), and
// registration with Pulumi's per-property debug stack traces. Both are costs the real program has
// removed, so the honest floor is bench/programs/floor; this one shows what those tricks are worth.
import * as pulumi from "@pulumi/pulumi";
import { declareTenants } from "txmail-bench-floor-tenant";

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

// The tenant graph, the same in every floor (bench/programs/floor-tenant).
declareTenants(count, Noop);
