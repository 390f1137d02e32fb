// The commands of txmail-fleet, registered by name: the CLI's parser asks them for their own flags,
// the dispatcher (fleet/fleet.ts) for what each needs and its run, the worker for its shard step.
// A new command is a module here and a line in COMMANDS (and its words in fleet/args.ts's USAGE).
import type { FleetCommand } from "../command";
import type { Operation } from "../options";
import { dnsCommand } from "./dns";
import { driftCommand } from "./drift";
import { outputCommand } from "./output";
import { placeCommand } from "./place";
import { reportCommand } from "./report";
import { rotateCommand } from "./rotate";
import { destroyCommand, previewCommand, refreshCommand, upCommand } from "./shards";

/** In the order of OPERATIONS (fleet/options.ts); the flags' checks run in this order too. */
export const COMMANDS: readonly FleetCommand[] = [
  upCommand,
  previewCommand,
  refreshCommand,
  destroyCommand,
  placeCommand,
  outputCommand,
  driftCommand,
  dnsCommand,
  reportCommand,
  rotateCommand,
];

export function commandNamed(name: Operation): FleetCommand {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new Error(`txmail-fleet: no command module registers '${name}'`);
  return command;
}
