// What a platform team hands a tenant and its applications: the secrets the tenant's objects were
// created with, by the names the Tenant declares them under. The service shows each secret once, at
// creation; the stack keeps it (encrypted), and this gathers it into one secret output.
import * as pulumi from "@pulumi/pulumi";
import type { Tenant } from "./tenant";

export interface TenantCredentials {
  /** The bootstrap key's secret (what the tenant's objects are managed with). */
  bootstrapKey: string;
  /** Each extra key's secret, by its name in `apiKeys`. */
  apiKeys: Record<string, string>;
  smtpCredentials: Record<string, { username: string; password: string }>;
  /** Each route's signing secret. */
  routes: Record<string, string>;
  /** Each webhook's signing secret. */
  webhooks: Record<string, string>;
}

/** The tenant's credentials as one Pulumi secret (empty for an adopted key: the service showed it to no one here). */
export function tenantCredentials(tenant: Tenant): pulumi.Output<TenantCredentials> {
  return credentialsByTenant({ tenant }).apply((byTenant) => byTenant.tenant!);
}

/**
 * Several tenants' credentials, by the names given, as one Pulumi secret. One output waits for all
 * the secrets at once: a shard program declares 60 tenants, and an output per tenant and per map of
 * each (nine per tenant) measurably slowed every preview of the fleet.
 */
export function credentialsByTenant(tenants: Record<string, Tenant>): pulumi.Output<Record<string, TenantCredentials>> {
  const slots = Object.entries(tenants).flatMap(([name, tenant]) =>
    secretsOf(tenant).map(([path, value]) => ({ path: [name, ...path], value })),
  );
  return pulumi.secret(
    pulumi.all(slots.map((slot) => slot.value)).apply((values) => {
      const out: Record<string, TenantCredentials> = {};
      for (const name of Object.keys(tenants)) {
        out[name] = { bootstrapKey: "", apiKeys: {}, smtpCredentials: {}, routes: {}, webhooks: {} };
      }
      slots.forEach((slot, i) => setAt(out, slot.path, values[i]));
      return out;
    }),
  );
}

/** Each secret a tenant holds, with its place in TenantCredentials. */
function secretsOf(tenant: Tenant): Array<[path: string[], value: pulumi.Output<string>]> {
  return [
    [["bootstrapKey"], tenant.bootstrapKey.secretKey],
    ...Object.entries(tenant.apiKeys).map(([n, k]): [string[], pulumi.Output<string>] => [["apiKeys", n], k.secretKey]),
    ...Object.entries(tenant.smtpCredentials).flatMap(([n, s]): Array<[string[], pulumi.Output<string>]> => [
      [["smtpCredentials", n, "username"], s.username],
      [["smtpCredentials", n, "password"], s.password],
    ]),
    ...Object.entries(tenant.routes).map(([n, r]): [string[], pulumi.Output<string>] => [["routes", n], r.secret]),
    ...Object.entries(tenant.webhooks).map(([n, w]): [string[], pulumi.Output<string>] => [["webhooks", n], w.secret]),
  ];
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
  node[path[path.length - 1]!] = value;
}
