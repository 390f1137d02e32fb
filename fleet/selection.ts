// Which shards a run touches: all of them, those of `--tenant` names (a tenant that just left the
// file is found in its former shard, whose next `up` deletes it), and of those the share of
// `--runner I/N` (runner I of a CI matrix of N takes the shards k with (k − 1) mod N = I − 1, so the
// matrix size never has to match the number of shards).
import { UsageError } from "./options";
import { type PlacementChange, shardOf } from "./placement";

export function selectShards(
  change: PlacementChange,
  opts: { tenants: readonly string[]; runner?: { index: number; count: number } },
  where: { tenantsFile: string; placementFile: string },
): number[] {
  let shards = change.placement.shards;
  if (opts.tenants.length > 0) {
    const wanted = new Set<number>();
    for (const name of opts.tenants) {
      const shard = shardOf(change.placement, name) ?? change.removed.find((r) => r.tenant === name)?.shard;
      if (shard === undefined) {
        throw new UsageError(`--tenant: '${name}' is neither in ${where.tenantsFile} nor in ${where.placementFile}`);
      }
      wanted.add(shard);
    }
    shards = shards.filter((s) => wanted.has(s));
  }
  const runner = opts.runner;
  if (runner) shards = shards.filter((s) => (s - 1) % runner.count === runner.index - 1);
  return shards;
}
