// `txmail-fleet up|preview|refresh|destroy`: the engine's operation on each selected shard stack, in
// the fleet's workers; then the summary table, the exit code (0: every shard ran and succeeded; 1:
// a shard failed or was not run) and the run's report (--json, --html).
import type { FleetCommand, FleetIo, PlacedFleet, ShardStep } from "../command";
import { remediateUp } from "../drift/remediateUp";
import type { FleetOptions } from "../options";
import { runInWorkers, shardJobs, summarize, writeReports } from "../shardRun";

async function runShards(opts: FleetOptions, fleet: PlacedFleet, io: FleetIo): Promise<number> {
  const jobs = shardJobs(opts, fleet);
  if (jobs.length === 0) {
    io.out("no shard to run for these options");
    return 0;
  }
  io.out(
    `${opts.operation}: ${jobs.length} of ${fleet.change.placement.shards.length} shards, ${opts.parallel} at a time`,
  );
  const started = Date.now();
  const results = await runInWorkers(opts, jobs, started, io);
  const exitCode = summarize(opts, jobs, results, started, io);
  writeReports(opts, fleet, { jobs, results, started, exitCode }, io);
  return exitCode;
}

const policyOf = (job: { policyPacks: string[]; policyPackConfigs: string[] }) => ({
  policyPacks: job.policyPacks,
  policyPackConfigs: job.policyPackConfigs,
});

const up: ShardStep = {
  preview: false,
  readsOnly: false,
  run: async (stack, job, { common, counts, send }) => {
    // Remediation: the drifted resources only (with what depends on them), read from the service
    // first; a failed one keeps no refresh it did not act on (drift/remediateUp.ts).
    if (job.remediate) {
      const say = (message: string) => send({ type: "notice", message });
      await remediateUp(stack, { ...common, ...policyOf(job), target: job.remediate }, counts, say);
    } else await stack.up({ ...common, ...policyOf(job) });
  },
};

const preview: ShardStep = {
  preview: true,
  readsOnly: false,
  run: async (stack, job, { common }) => void (await stack.preview({ ...common, ...policyOf(job) })),
};

const refresh: ShardStep = {
  preview: false,
  readsOnly: false,
  run: async (stack, _job, { common }) => void (await stack.refresh(common)),
};

const destroy: ShardStep = {
  preview: false,
  readsOnly: false,
  run: async (stack, _job, { common }) => void (await stack.destroy(common)),
};

export const upCommand: FleetCommand = { name: "up", flags: [], needs: "stacks", shard: up, run: runShards };
export const previewCommand: FleetCommand = {
  name: "preview",
  flags: [],
  needs: "stacks",
  shard: preview,
  run: runShards,
};
export const refreshCommand: FleetCommand = {
  name: "refresh",
  flags: [],
  needs: "stacks",
  shard: refresh,
  run: runShards,
};
export const destroyCommand: FleetCommand = {
  name: "destroy",
  flags: [],
  needs: "stacks",
  shard: destroy,
  run: runShards,
};
