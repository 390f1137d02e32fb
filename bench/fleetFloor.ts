// The fleet floor (bench/fleetBackends.ts): loaded with `node --require` into the fleet command and
// its shard workers, it swaps each shard's program for one that declares the same tenants as the
// same number of resources that do nothing — per tenant a component and 6 `pulumi.Stash` resources
// (served by the engine itself: no provider process, no service call). Everything else is the real
// fleet: the same command, placement, shards, workers, engine runs, backend and settings. The fleet's
// time over the floor's is then what the txmail resources themselves cost (the provider plugin, its
// calls to the service, their larger state).
import Module = require("node:module");
import type { TenantEntry } from "../sdk/tenantsFile";

type Load = (request: string, parent: { filename?: string } | undefined, isMain: boolean) => unknown;
const moduleLoader = Module as unknown as { _load: Load };
const load = moduleLoader._load;
moduleLoader._load = function (request, parent, isMain) {
  const exported = load.call(this, request, parent, isMain);
  const worker = parent?.filename ?? "";
  if (request === "./shardProgram" && /[\\/]fleet[\\/]worker\.js$/.test(worker)) {
    // The worker's own @pulumi/pulumi (the run's state lives in that module instance).
    const pulumi = Module.createRequire(worker)("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
    return { shardProgram: (entries: readonly TenantEntry[]) => floorProgram(pulumi, entries) };
  }
  return exported;
};

const KINDS = ["subAccount", "bootstrapKey", "domain", "route", "webhook", "smtpCredential"];

function floorProgram(
  pulumi: typeof import("@pulumi/pulumi"),
  entries: readonly TenantEntry[],
): () => Promise<Record<string, unknown>> {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return async () => {
    const summary: Record<string, unknown> = {};
    for (const t of sorted) {
      const tenant = new pulumi.ComponentResource("txmailfloor:index:Tenant", t.name, {});
      for (const kind of KINDS)
        new pulumi.Stash(`${t.name}-${kind}`, { input: { tenant: t.name, kind } }, { parent: tenant });
      summary[t.name] = { website: t.website };
    }
    return { summary };
  };
}
