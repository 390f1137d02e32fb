// What a shard stack's outputs tell about its tenants, for the commands that read the service with
// each tenant's own key (drift's inventory, dns): each tenant's summary (no secrets: its sub account,
// its domain) and its bootstrap key (a secret). Read in the shard's worker: the keys stay in the
// process that uses them and are never sent to the fleet command, printed or written.
import type { Stack } from "@pulumi/pulumi/automation";
import type { Api } from "../provider/core/api";
import { apiFor } from "../provider/core/clientApi";
import { resolveConnection } from "../provider/core/connection";

/** Outputs as the Automation API gives them (`stack.outputs()`, `workspace.stackOutputs()`). */
export type OutputMap = Record<string, { value?: unknown; secret?: boolean } | undefined>;

/** What a tenant's summary output records (sdk/nodejs/tenant.ts), as far as these commands need it. */
export interface TenantSummary {
  subAccountId?: string;
  /** Its domain's name; absent for a tenant without one. */
  domain?: string;
}

export interface ShardOutputs {
  /** By tenant: only the tenants the shard's last run recorded. */
  summaries: Map<string, TenantSummary>;
  /** By tenant: only the tenants whose key the stack holds (an adopted key's secret is not there). */
  bootstrapKeys: Map<string, string>;
}

/**
 * Tenants read at once: each tenant's own key has its own rate limit at the service, so a shard's
 * tenants need not wait for one another (a parent key's requests are paced by the client).
 */
export const TENANT_LANES = 8;

/**
 * The shard program's `summary` and `credentials` outputs (fleet/shardProgram.ts), secrets shown.
 * A stack that does not exist rejects with the Automation API's StackNotFoundError.
 */
export async function readShardOutputs(stack: Stack): Promise<ShardOutputs> {
  return shardOutputsOf((await stack.workspace.stackOutputs(stack.name)) as OutputMap);
}

/** Maps (not objects) by tenant name: a tenant may be called `constructor`. */
export function shardOutputsOf(outputs: OutputMap): ShardOutputs {
  const entries = (v: unknown): Array<[string, unknown]> =>
    typeof v === "object" && v !== null ? Object.entries(v as Record<string, unknown>) : [];
  const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
  const summaries = new Map<string, TenantSummary>();
  for (const [tenant, s] of entries(outputs.summary?.value)) {
    const fields = new Map(entries(s));
    const subAccountId = text(fields.get("subAccountId"));
    const domain = text(fields.get("domain"));
    summaries.set(tenant, { ...(subAccountId && { subAccountId }), ...(domain && { domain }) });
  }
  const bootstrapKeys = new Map<string, string>();
  for (const [tenant, c] of entries(outputs.credentials?.value)) {
    const key = text(new Map(entries(c)).get("bootstrapKey"));
    if (key) bootstrapKeys.set(tenant, key);
  }
  return { summaries, bootstrapKeys };
}

/** The service as one tenant's sub account sees it, through its own key (same base URL as the fleet's). */
export function tenantApi(apiKey: string, subAccountId: string): Api {
  return apiFor(resolveConnection({ apiKey, accountId: subAccountId }));
}
