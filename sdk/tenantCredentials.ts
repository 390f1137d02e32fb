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
  const byName = <T, U>(
    objects: Record<string, T>,
    value: (o: T) => pulumi.Output<U>,
  ): pulumi.Output<Record<string, U>> =>
    pulumi.all(Object.fromEntries(Object.entries(objects).map(([name, o]) => [name, value(o)]))) as pulumi.Output<
      Record<string, U>
    >;
  return pulumi.secret(
    pulumi
      .all([
        tenant.bootstrapKey.secretKey,
        byName(tenant.apiKeys, (k) => k.secretKey),
        byName(tenant.smtpCredentials, (s) => pulumi.all([s.username, s.password])),
        byName(tenant.routes, (r) => r.secret),
        byName(tenant.webhooks, (w) => w.secret),
      ])
      .apply(([bootstrapKey, apiKeys, smtp, routes, webhooks]) => ({
        bootstrapKey,
        apiKeys,
        smtpCredentials: Object.fromEntries(
          Object.entries(smtp).map(([name, [username, password]]) => [name, { username, password }]),
        ),
        routes,
        webhooks,
      })),
  );
}
