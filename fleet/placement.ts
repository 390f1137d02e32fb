// Which shard stack each tenant lives in. Placement is sticky: a tenant placed once stays in its
// shard until it leaves the tenants file, because moving it would mean deleting its objects in one
// stack and creating them again in another (new sub account, new keys, new secrets). So the order of
// the file never matters, removing a tenant frees its seat without touching anyone else, and new
// tenants fill the lowest-numbered shard with room, then open new shards. A tenant renamed in the
// file (its entry lists the old name in `formerNames`) keeps the old name's shard: its resources are
// aliased there, so nothing is deleted or created.
//
// The stacks are the truth about where a tenant's objects are: when the fleet has read them
// (`held`, fleet/census.ts), a tenant a stack holds stays in that shard whatever the placement file
// says — a lost file is rebuilt from them, a tenant removed and put back before an `up` keeps its
// seat — and a placement file that puts it elsewhere (edited by hand) asks for a move, which the
// fleet makes in the state (fleet/census.ts moveShardTenants), never by deleting and creating the tenant again.

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
  /**
   * Which fleet this is: drawn when the fleet is created, and tagged on every shard stack it makes
   * (`txmail-fleet:id`), so a second fleet on the same backend and project never takes its stacks.
   * Undefined in placement files written before fleets had ids (one is drawn at their next write).
   */
  fleetId?: string;
}

export interface PlacementChange {
  placement: Placement;
  /** Tenants placed by this call, with their shard, in tenants-file order. */
  added: Array<{ tenant: string; shard: number }>;
  /** Tenants that left the file, with the shard whose next `up` deletes their objects. */
  removed: Array<{ tenant: string; shard: number }>;
  /** Tenants that took a former name's place (and shard), in tenants-file order. */
  renamed: Array<{ from: string; to: string; shard: number }>;
  /**
   * Tenants a shard stack holds (`held`) that the placement file puts in another shard: their
   * resources move in the state from `from` to `to` before any shard runs (ids and secrets kept).
   */
  moves: Array<{ tenant: string; from: number; to: number }>;
  /** Tenants the placement file lacked (or was missing) that a shard stack holds: kept there. */
  found: Array<{ tenant: string; shard: number }>;
}

export function emptyPlacement(shardSize: number, face: Face, fleetId?: string): Placement {
  return { face, shardSize, shards: [], tenants: {}, ...(fleetId && { fleetId }) };
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
  /** tenant → the shard whose stack holds its resources, when the stacks were read (fleet/census.ts). */
  held?: ReadonlyMap<string, number>,
): PlacementChange {
  if (!Number.isInteger(shardSize) || shardSize < 1) throw new RangeError(`shard size must be a positive integer`);
  const present = new Set(tenantNames);
  const { tenants, renamed, moves, found, renamedFrom } = placeKnown(previous, tenantNames, present, formerNames, held);
  const removed = removedTenants(previous, present, renamedFrom, held);
  const shards = new Set(previous.shards);
  for (const shard of held?.values() ?? []) shards.add(shard);
  const added = seatNew(tenants, tenantNames, shards, shardSize);
  return {
    placement: {
      face: previous.face,
      shardSize,
      shards: [...shards].sort((a, b) => a - b),
      tenants: sortedByName(tenants),
      ...(previous.fleetId && { fleetId: previous.fleetId }),
    },
    added,
    removed: removed.sort((a, b) => byName(a.tenant, b.tenant)),
    renamed,
    moves,
    found,
  };
}

/**
 * The tenants that have a shard already: where their stack holds them (a placement file that says
 * otherwise is honoured by a move), where the placement file puts them, or their former name's.
 */
function placeKnown(
  previous: Placement,
  tenantNames: readonly string[],
  present: ReadonlySet<string>,
  formerNames: ReadonlyMap<string, readonly string[]>,
  held: ReadonlyMap<string, number> | undefined,
): Pick<PlacementChange, "renamed" | "moves" | "found"> & {
  tenants: Record<string, number>;
  renamedFrom: Set<string>;
} {
  // Where a tenant's objects are: its stack, when read, else the placement file.
  const at = (tenant: string) => held?.get(tenant) ?? shardOf(previous, tenant);
  const tenants: Record<string, number> = {};
  const renamed: PlacementChange["renamed"] = [];
  const moves: PlacementChange["moves"] = [];
  const found: PlacementChange["found"] = [];
  const renamedFrom = new Set<string>();
  for (const tenant of tenantNames) {
    const h = held?.get(tenant);
    const p = shardOf(previous, tenant);
    if (h !== undefined) {
      // The placement file moved it (by hand): honoured by a move in the state, never by a re-make.
      if (p !== undefined && p !== h) moves.push({ tenant, from: h, to: p });
      else if (p === undefined) found.push({ tenant, shard: h });
      tenants[tenant] = p ?? h;
      continue;
    }
    if (p !== undefined) {
      tenants[tenant] = p;
      continue;
    }
    // The first former name still placed and no longer in the file is where this tenant's objects are.
    const from = formerNames.get(tenant)?.find((f) => at(f) !== undefined && !present.has(f));
    if (from === undefined || renamedFrom.has(from)) continue;
    const formerShard = at(from)!;
    tenants[tenant] = formerShard;
    renamed.push({ from, to: tenant, shard: formerShard });
    renamedFrom.add(from);
  }
  return { tenants, renamed, moves, found, renamedFrom };
}

/** The tenants that left the file (and were not renamed), with the shard that holds them. */
function removedTenants(
  previous: Placement,
  present: ReadonlySet<string>,
  renamedFrom: ReadonlySet<string>,
  held: ReadonlyMap<string, number> | undefined,
): PlacementChange["removed"] {
  const removed: PlacementChange["removed"] = [];
  const gone = new Map<string, number>(Object.entries(previous.tenants));
  for (const [tenant, shard] of held ?? []) gone.set(tenant, shard); // the stack's word wins
  for (const [tenant, shard] of gone) {
    if (!present.has(tenant) && !renamedFrom.has(tenant)) removed.push({ tenant, shard });
  }
  return removed;
}

/**
 * New tenants, in file order, each to the lowest-numbered shard holding fewer than `shardSize`, else
 * to a new shard after the last; `tenants` and `shards` gain them.
 */
function seatNew(
  tenants: Record<string, number>,
  tenantNames: readonly string[],
  shards: Set<number>,
  shardSize: number,
): PlacementChange["added"] {
  const load = new Map<number, number>();
  const seat = (shard: number) => {
    shards.add(shard);
    load.set(shard, (load.get(shard) ?? 0) + 1);
  };
  for (const shard of Object.values(tenants)) seat(shard);
  const added: PlacementChange["added"] = [];
  for (const tenant of tenantNames) {
    if (Object.hasOwn(tenants, tenant)) continue;
    const shard = [...shards].sort((a, b) => a - b).find((s) => (load.get(s) ?? 0) < shardSize) ?? nextShard(shards);
    seat(shard);
    tenants[tenant] = shard;
    added.push({ tenant, shard });
  }
  return added;
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
