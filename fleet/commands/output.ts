// `txmail-fleet output --tenant NAME`: that tenant's summary and credentials from its shard stack, as
// JSON alone on stdout (for `jq`). Reads the placement and that one stack only: no census of the
// backend, no worker.
import type { FleetCommand } from "../command";
import { shardStackName } from "../defaults";
import { tenantOutputs } from "../output";
import { selectShards } from "../selection";
import { prepareWorkDir, workDirOf } from "../workDir";

export const outputCommand: FleetCommand = {
  name: "output",
  flags: [["--show-secrets", "showSecrets"]],
  needs: "placement",
  run: async (opts, fleet, io) => {
    const { tenantsFile, placementFile, change } = fleet;
    const [shard] = selectShards(change, { tenants: opts.tenants }, { tenantsFile, placementFile });
    // The CLI runs in the work dir (the project's Pulumi.yaml), which a fresh checkout has not got yet.
    const workDir = workDirOf(opts, tenantsFile);
    prepareWorkDir(workDir, opts.project);
    const outputs = await tenantOutputs({
      tenant: opts.tenants[0]!,
      stackName: shardStackName(shard!),
      workDir,
      showSecrets: opts.showSecrets,
    });
    io.out(JSON.stringify(outputs, null, 2));
    return 0;
  },
};
