// `txmail-fleet drift`: each selected shard's resources read back from the service in the fleet's
// workers (drift/shardCheck.ts), then the account-wide inventory, --remediate's targeted up, and the
// report with its exit code (drift/run.ts). Reads only, unless --remediate.
import type { FleetCommand } from "../command";
import type * as DriftRun from "../drift/run";
import type * as ShardCheck from "../drift/shardCheck";

export const driftCommand: FleetCommand = {
  name: "drift",
  flags: [
    ["--markdown", "markdownFile"],
    ["--remediate", "remediate"],
    ["--no-inventory", "noInventory"],
    ["--ignore", "ignore"],
  ],
  needs: "stacks",
  shard: {
    // A drift check is a refresh preview: it counts what it read, never a change (it makes none).
    preview: true,
    readsOnly: true,
    run: async (stack, job, { common, send }) => {
      // Loaded only here: the inventory brings the policy pack's rules, which other runs never need.
      const { checkShard } = require("../drift/shardCheck") as typeof ShardCheck;
      const tenants = job.entries.map((e) => e.name);
      const report = await checkShard(stack, tenants, {
        onEvent: common.onEvent!,
        onOutput: common.onOutput!,
        inventory: job.inventory ?? true,
      });
      await send({ type: "drift", report });
    },
  },
  // Loaded only for drift: its inventory brings the policy pack's rules.
  run: (opts, fleet, io) => (require("../drift/run") as typeof DriftRun).runDrift(opts, fleet, io),
};
