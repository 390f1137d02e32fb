// `txmail-fleet dns`: each selected tenant's domain records as the service holds them, read in the
// fleet's workers with the tenant's own key (dns/shardDns.ts), then shown as a table, JSON or a
// zone-file fragment (dns/run.ts). Reads only, unless --check-dns.
import type { FleetCommand } from "../command";
import type * as DnsRun from "../dns/run";
import type * as ShardDns from "../dns/shardDns";

export const dnsCommand: FleetCommand = {
  name: "dns",
  flags: [
    ["--zone", "zone"],
    ["--required-only", "requiredOnly"],
    ["--check-dns", "checkDns"],
  ],
  needs: "stacks",
  shard: {
    preview: false,
    readsOnly: true,
    run: async (stack, job, { send }) => {
      // Loaded only here, as drift's check: other runs never need the service's client in the worker.
      const { readShardDns, stackSource } = require("../dns/shardDns") as typeof ShardDns;
      const report = await readShardDns(stackSource(stack), job.entries, { checkDns: job.checkDns ?? false });
      await send({ type: "dns", report });
    },
  },
  run: (opts, fleet, io) => (require("../dns/run") as typeof DnsRun).runDns(opts, fleet, io),
};
