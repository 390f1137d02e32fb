// Which shard stack each tenant lives in. Placement is sticky: a tenant placed once stays in its
// shard until it leaves the tenants file, because moving it would mean deleting its objects in one
// stack and creating them again in another (new sub account, new keys, new secrets). So the order of
// the file never matters, removing a tenant frees its seat without touching anyone else, and new
// tenants fill the lowest-numbered shard with room, then open new shards. A tenant renamed in the
// file (its entry lists the old name in `formerNames`) keeps the old name's shard: its resources are
// aliased there, so nothing is deleted or created.

import type { Face } from "../sdk/nodejs/internal/face";

export interface Placement {
  /**
   * How the fleet's shard programs register their resources (sdk/nodejs/internal/face.ts), fixed when the
   * fleet is created: switching would give every resource another type, which the engine replaces.
   */
  face: Face;
  /** The most tenants a shard receives; shards already fuller (the size was lowered) keep their tenants. */
  shardSize: number;
  /** Every shard that exists or existed, ascending: an emptied shard still has a stack to bring down. */
  shards: number[];
  /** tenant name → shard number (1-based). */
  tenants: Record<string, number>;
}

export interface PlacementChange {
  placement: Placement;
  /** Tenants placed by this call, with their shard, in tenants-file order. */
  added: Array<{ tenant: string; shard: number }>;
  /** Tenants that left the file, with the shard whose next `up` deletes their objects. */
  removed: Array<{ tenant: string; shard: number }>;
  /** Tenants that took a former name's place (and shard), in tenants-file order. */
  renamed: Array<{ from: string; to: string; shard: number }>;
}

export function emptyPlacement(shardSize: number, face: Face): Placement {
  return { face, shardSize, shards: [], tenants: {} };
}

/**
 * The placement for the tenants now in the file, derived from the previous one: kept tenants stay,
 * renamed ones take their former name's shard, removed ones leave, new ones (in file order, so a run
 * is reproducible from the same inputs) go to the lowest-numbered shard holding fewer than
 * `shardSize`, else to a new shard after the last. `formerNames` maps a tenant to the names it had.
 */
export function place(
  previous: Placement,
  tenantNames: readonly string[],
  shardSize: number,
  formerNames: ReadonlyMap<string, readonly string[]> = new Map(),
): PlacementChange {
  if (!Number.isInteger(shardSize) || shardSize < 1) throw new RangeError(`shard size must be a positive integer`);
  const present = new Set(tenantNames);
  const tenants: Record<string, number> = {};
  const renamed: PlacementChange["renamed"] = [];
  const renamedFrom = new Set<string>();
  for (const tenant of tenantNames) {
    const shard = shardOf(previous, tenant);
    if (shard !== undefined) {
      tenants[tenant] = shard;
      continue;
    }
    // The first former name still placed and no longer in the file is where this tenant's objects are.
    const from = formerNames.get(tenant)?.find((f) => shardOf(previous, f) !== undefined && !present.has(f));
    if (from === undefined || renamedFrom.has(from)) continue;
    const formerShard = shardOf(previous, from)!;
    tenants[tenant] = formerShard;
    renamed.push({ from, to: tenant, shard: formerShard });
    renamedFrom.add(from);
  }
  const removed: PlacementChange["removed"] = [];
  for (const [tenant, shard] of Object.entries(previous.tenants)) {
    if (!present.has(tenant) && !renamedFrom.has(tenant)) removed.push({ tenant, shard });
  }
  const shards = new Set(previous.shards);
  const load = new Map<number, number>();
  for (const shard of Object.values(tenants)) {
    shards.add(shard);
    load.set(shard, (load.get(shard) ?? 0) + 1);
  }
  const added: PlacementChange["added"] = [];
  for (const tenant of tenantNames) {
    if (Object.hasOwn(tenants, tenant)) continue;
    const shard = [...shards].sort((a, b) => a - b).find((s) => (load.get(s) ?? 0) < shardSize) ?? nextShard(shards);
    shards.add(shard);
    load.set(shard, (load.get(shard) ?? 0) + 1);
    tenants[tenant] = shard;
    added.push({ tenant, shard });
  }
  return {
    placement: {
      face: previous.face,
      shardSize,
      shards: [...shards].sort((a, b) => a - b),
      tenants: sortedByName(tenants),
    },
    added,
    removed: removed.sort((a, b) => byName(a.tenant, b.tenant)),
    renamed,
  };
}

/**
 * The shard of a placed tenant. Own keys only: a tenant may well be called `constructor` or
 * `tostring`, which every plain object answers through its prototype.
 */
export function shardOf(placement: Placement, tenant: string): number | undefined {
  return Object.hasOwn(placement.tenants, tenant) ? placement.tenants[tenant] : undefined;
}

/** Tenants of one shard, by name (the program's declaration order does not depend on the file's). */
export function tenantsOf(placement: Placement, shard: number): string[] {
  return Object.entries(placement.tenants)
    .filter(([, s]) => s === shard)
    .map(([t]) => t)
    .sort();
}

function nextShard(shards: Set<number>): number {
  return shards.size === 0 ? 1 : Math.max(...shards) + 1;
}

/** Sorted keys keep the file's diffs readable in code review whatever order tenants arrive in. */
function sortedByName(tenants: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(tenants).sort(([a], [b]) => byName(a, b)));
}

/** Code-unit order: the same on every machine, whatever its locale. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
