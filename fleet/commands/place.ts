// `txmail-fleet place`: the tenants placed against the shard stacks (the dispatcher moves tenants in
// the state and writes the placement, as for up), then each shard and its tenants. Runs no shard.
import type { FleetCommand } from "../command";
import { shardStackName } from "../defaults";
import { tenantsOf } from "../placement";

export const placeCommand: FleetCommand = {
  name: "place",
  flags: [],
  needs: "stacks",
  run: (_opts, fleet, io) => {
    const { placement } = fleet.change;
    for (const shard of placement.shards) {
      io.out(`${shardStackName(shard)}: ${tenantsOf(placement, shard).join(", ") || "(no tenants)"}`);
    }
    return 0;
  },
};
