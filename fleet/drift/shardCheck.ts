// One shard's drift check, in its worker: a refresh preview (the engine reads every resource from
// the service and writes nothing), then the inventory of each tenant's sub account with that
// tenant's bootstrap key (read from the stack's credentials output, in this process only: it is
// never sent to the fleet command, printed or written). 0 writes to the stack and to the service.
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { apiFor } from "../../provider/core/clientApi";
import { resolveConnection } from "../../provider/core/connection";
import { DriftCollector } from "./findings";
import { runBounded } from "../pool";
import { type Listing, listUnmanaged, SUB_ACCOUNT_KINDS } from "./inventory";
import { readShardOutputs, TENANT_LANES, tenantApi } from "../shardOutputs";
import type { ShardDrift } from "./types";

export interface CheckOptions {
  onEvent(event: EngineEvent): void;
  onOutput(text: string): void;
  /** Skip the inventory (`--no-inventory`). */
  inventory: boolean;
}

export async function checkShard(stack: Stack, tenants: string[], o: CheckOptions): Promise<ShardDrift> {
  const collector = new DriftCollector();
  const result: ShardDrift = {
    shard: stack.name,
    tenants,
    drift: [],
    unmanaged: [],
    notListed: [],
    managed: [],
    listCalls: 0,
  };
  // The keys are read (`pulumi stack output`, ~1 core-second) while the engine refreshes: both
  // only read the stack. Awaited after the refresh; a failure then is the shard's error.
  const keysRead = o.inventory ? readShardOutputs(stack).then((outputs) => outputs.bootstrapKeys) : undefined;
  keysRead?.catch(() => undefined);
  try {
    await stack.previewRefresh({
      color: "never",
      onOutput: o.onOutput,
      onEvent: (event) => {
        collector.add(event);
        o.onEvent(event);
      },
    });
  } catch (e) {
    // A resource whose read failed fails the preview; the others were still read and are reported.
    if (collector.failures().length === 0) throw e;
  }
  result.drift = [...collector.drift, ...collector.failures()];
  result.managed = collector.managed;
  if (o.inventory) await inventory(await keysRead!, collector, result);
  return result;
}

/** Each tenant's sub account: its keys (listed with the parent key), and its objects (with its own). */
async function inventory(
  keys: ReadonlyMap<string, string>,
  collector: DriftCollector,
  result: ShardDrift,
): Promise<void> {
  const parent = resolveConnection();
  const managed = new Set(collector.managed.map((m) => `${m.kind}:${m.id}`));
  const gone = (sub: string) =>
    result.drift.some((d) => d.kind === "SubAccount" && d.id === sub && d.status !== "changed");
  const subs = [...collector.subAccounts].filter(([, sub]) => !gone(sub.id));
  const listed = await runBounded(subs, TENANT_LANES, async ([tenant, sub]): Promise<Listing[]> => {
    const keyListing = listUnmanaged(
      apiFor(parent),
      { accountId: parent.accountId, kinds: ["SubAccountApiKey"], props: { subAccountId: sub.id }, tenant },
      managed,
    );
    const key = keys.get(tenant);
    if (!key) {
      const reason = "the stack holds no bootstrap key of this tenant (adopted key?)";
      return [
        await keyListing,
        { unmanaged: [], listCalls: 0, notListed: SUB_ACCOUNT_KINDS.map((kind) => ({ tenant, kind, reason })) },
      ];
    }
    const objects = listUnmanaged(
      tenantApi(key, sub.id),
      {
        accountId: sub.id,
        kinds: SUB_ACCOUNT_KINDS,
        tenant,
        ownerSince: sub.createdAt,
        domains: collector.domains.get(tenant),
        keyScopes: collector.bootstrapScopes.get(tenant),
      },
      managed,
    );
    return Promise.all([keyListing, objects]);
  });
  // In the shard's tenant order, whatever order the lanes finished in.
  for (const l of listed.flat()) {
    if (!l) continue;
    result.unmanaged.push(...l.unmanaged);
    result.notListed.push(...l.notListed);
    result.listCalls += l.listCalls;
  }
}
