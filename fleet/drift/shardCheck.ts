// One shard's drift check, in its worker: a refresh preview (the engine reads every resource from
// the service and writes nothing), then the inventory of each tenant's sub account with that
// tenant's bootstrap key (read from the stack's credentials output, in this process only: it is
// never sent to the fleet command, printed or written). 0 writes to the stack and to the service.
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { apiFor } from "../../provider/core/clientApi";
import { resolveConnection } from "../../provider/core/connection";
import { DriftCollector } from "./findings";
import { listUnmanaged, SUB_ACCOUNT_KINDS } from "./inventory";
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
    const failures = collector.failures();
    if (failures.length === 0) throw e;
  }
  result.drift = [...collector.drift, ...collector.failures()];
  result.managed = collector.managed;
  if (o.inventory) await inventory(stack, collector, result);
  return result;
}

/** Each tenant's sub account: its keys (listed with the parent key), and its objects (with its own). */
async function inventory(stack: Stack, collector: DriftCollector, result: ShardDrift): Promise<void> {
  const parent = resolveConnection();
  const keys = await bootstrapKeys(stack);
  const managed = new Set(collector.managed.map((m) => `${m.kind}:${m.id}`));
  for (const [tenant, sub] of collector.subAccounts) {
    const gone = result.drift.some((d) => d.kind === "SubAccount" && d.id === sub.id && d.status !== "changed");
    if (gone) continue;
    const listings = [
      await listUnmanaged(
        apiFor(parent),
        { accountId: parent.accountId, kinds: ["SubAccountApiKey"], props: { subAccountId: sub.id }, tenant },
        managed,
      ),
    ];
    const key = keys[tenant];
    if (key) {
      const own = { apiKey: key, accountId: sub.id, baseUrl: parent.baseUrl };
      listings.push(
        await listUnmanaged(
          apiFor(own),
          {
            accountId: sub.id,
            kinds: SUB_ACCOUNT_KINDS,
            tenant,
            ownerSince: sub.createdAt,
            domains: collector.domains.get(tenant),
            keyScopes: collector.bootstrapScopes.get(tenant),
          },
          managed,
        ),
      );
    } else {
      for (const kind of SUB_ACCOUNT_KINDS) {
        result.notListed.push({
          tenant,
          kind,
          reason: "the stack holds no bootstrap key of this tenant (adopted key?)",
        });
      }
    }
    for (const l of listings) {
      result.unmanaged.push(...l.unmanaged);
      result.notListed.push(...l.notListed);
      result.listCalls += l.listCalls;
    }
  }
}

/** Each tenant's bootstrap key, from the shard program's `credentials` output (a Pulumi secret). */
async function bootstrapKeys(stack: Stack): Promise<Record<string, string>> {
  const outputs = await stack.workspace.stackOutputs(stack.name);
  const credentials = (outputs.credentials?.value ?? {}) as Record<string, { bootstrapKey?: string }>;
  return Object.fromEntries(
    Object.entries(credentials)
      .filter(([, c]) => typeof c?.bootstrapKey === "string" && c.bootstrapKey !== "")
      .map(([tenant, c]) => [tenant, c.bootstrapKey!]),
  );
}
