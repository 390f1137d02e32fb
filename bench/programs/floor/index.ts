// The engine floor for the tenants benchmark: the same resource graph as bench/programs/tenants
// (per tenant: a component, sub account → bootstrap key → domain → route, webhook, SMTP credential)
// made of dynamic resources whose provider does nothing, with every trick the real program uses that
// is not specific to the service:
// - the provider is an installed package's whole module (txmail-bench-noop, bench/programs/noop-provider),
//   so state stores `require("txmail-bench-noop")`, as pulumi-txmail's provider/kinds/* do;
// - resources register with `Error.stackTraceLimit = 0`, as sdk/nodejs/internal/txmailResource.ts does.
// What this costs is the engine's and the dynamic-provider plugin's own overhead; the real run's
// excess over it is what our resources cost.
import * as pulumi from "@pulumi/pulumi";
import { declareTenants } from "txmail-bench-floor-tenant";
import noop = require("txmail-bench-noop");

const count = new pulumi.Config().requireNumber("tenants");

class Noop extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(noop, name, { name, ...props }, opts, "bench", "Noop");
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

// The tenant graph, the same in every floor (bench/programs/floor-tenant).
declareTenants(count, Noop);
