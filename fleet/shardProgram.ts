// The inline Pulumi program of one shard stack: the shard's tenants, each a Tenant component built
// from its tenants-file entry exactly as the single-stack example does (sdk/nodejs/tenantsFile.ts), so a
// tenant is the same resources whichever way it is deployed.
import * as pulumi from "@pulumi/pulumi";
import { Tenant } from "../sdk/nodejs/tenant";
import { credentialsByTenant } from "../sdk/nodejs/tenantCredentials";
import { tenantArgs, tenantOptions, type TenantEntry } from "../sdk/nodejs/tenantsFile";

export function shardProgram(entries: readonly TenantEntry[]): () => Promise<Record<string, unknown>> {
  // By name: the order of the tenants file never reaches the program.
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return async () => {
    const tenants = sorted.map((t) => new Tenant(t.name, tenantArgs(t), tenantOptions(t)));
    const byName = Object.fromEntries(sorted.map((t, i) => [t.name, tenants[i]!]));
    return {
      /** One summary per tenant (no secrets), as in examples/tenants-from-yaml. */
      summary: pulumi.all(Object.fromEntries(Object.entries(byName).map(([name, tenant]) => [name, tenant.summary]))),
      /** Each tenant's keys and secrets, one Pulumi secret (`txmail-fleet output --tenant NAME`). */
      credentials: credentialsByTenant(byName),
    };
  };
}
