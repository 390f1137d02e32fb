// The native engine floor for the tenants benchmark: the graph of bench/programs/floor (per tenant: a
// component, sub account → bootstrap key → domain → route, webhook, SMTP credential) made of custom
// resources `txmailfloor:index:Noop` served by a plugin that does nothing
// (bench/programs/noop-native-provider) — over the very gRPC server the txmail plugin runs
// (native/server.ts), so it gets every trick the real native provider gets. Resources register with
// `Error.stackTraceLimit = 0`, as sdk/nodejs/internal/txmailResource.ts does. What this costs is the engine's
// and the plugin server's own overhead; the native real run's excess over it is what our resources cost.
import * as pulumi from "@pulumi/pulumi";
import { declareTenants } from "txmail-bench-floor-tenant";

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

// The tenant graph, the same in every floor (bench/programs/floor-tenant).
declareTenants(count, Noop);
