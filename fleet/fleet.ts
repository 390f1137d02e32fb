// The fleet command's run: prepare what the command needs (the tenants placed on the shards, against
// the stacks the backend holds where it acts on them), then run the command's module
// (fleet/commands), which drives the shards in workers with bounded parallelism, reports as it goes,
// and answers with the exit code (0: every shard ran and succeeded; 1: a shard failed or was not
// run; the others always finish first).
import type { FleetIo } from "./command";
import { commandNamed } from "./commands";
import type { FleetOptions } from "./options";
import { placeAgainstStacks, placeFleet } from "./placeFleet";

export async function runFleet(opts: FleetOptions, io: FleetIo): Promise<number> {
  const command = commandNamed(opts.operation);
  switch (command.needs) {
    case "nothing":
      return command.run(opts, io);
    case "placement":
      return command.run(opts, placeFleet(opts), io);
    case "stacks":
      return command.run(opts, await placeAgainstStacks(opts, io), io);
  }
}
