// What a txmail-fleet command is: a module (fleet/commands) registered with the CLI by its name, the
// flags only it takes, what it needs read before it runs, its step on each shard stack in a worker
// (fleet/worker.ts), and its run in the fleet command, which ends with its report and exit code.
// The dispatcher (fleet/fleet.ts) prepares what a command needs and calls it; a command never
// imports the dispatcher.
import type { RefreshOptions, Stack } from "@pulumi/pulumi/automation";
import type { TenantEntry } from "../sdk/nodejs/tenantsFile";
import type { FleetOptions, Operation } from "./options";
import type { PlacementChange, Placement } from "./placement";
import type { ShardJob, WorkerMessage } from "./protocol";
import type { StepCounts } from "./stepCounts";

export interface FleetIo {
  out(line: string): void;
  /** A command's result for programs (drift --json): stdout, while `out` may go to stderr. */
  result?(text: string): void;
  /** Set by the CLI on Ctrl-C: running shards finish, no new shard starts. */
  interrupted(): boolean;
}

/** The tenants file read and placed: what every operation on shards starts from. */
export interface PlacedFleet {
  tenantsFile: string;
  placementFile: string;
  entries: Map<string, TenantEntry>;
  previous: Placement | undefined;
  shardSize: number;
  change: PlacementChange;
}

/** What every step of a shard run is given in the worker: the engine's handlers, the step counts, the channel. */
export interface ShardStepContext {
  common: Pick<RefreshOptions, "onEvent" | "onOutput" | "color" | "debug">;
  counts: StepCounts;
  send(message: WorkerMessage): Promise<void>;
}

/** A command's work on one shard stack, in a worker. */
export interface ShardStep {
  run(stack: Stack, job: ShardJob, ctx: ShardStepContext): Promise<void>;
  /** Its engine run is a preview: steps are counted as what would change (or, for drift, what was read). */
  preview: boolean;
  /** It reads a stack and never creates one: a shard that has none is an error, not a first run. */
  readsOnly: boolean;
}

/** A flag only one command takes, and the option it sets (given: set, true, or a non-empty list). */
export type OwnFlag = readonly [flag: string, option: keyof FleetOptions];

interface CommandBase {
  name: Operation;
  /** The flags only this command takes: parseArgs refuses each on another command. */
  flags: readonly OwnFlag[];
  /** Its step on each shard stack, for the commands that run shards in workers. */
  shard?: ShardStep;
}

/**
 * What the dispatcher reads before the run: nothing (the command reads its own file); the
 * placement (the tenants file placed, the backend not asked); or the placement against the shard
 * stacks the backend holds (which may tag, move and write the placement for up and place).
 */
export type FleetCommand = CommandBase &
  (
    | { needs: "nothing"; run(opts: FleetOptions, io: FleetIo): Promise<number> | number }
    | {
        needs: "placement" | "stacks";
        run(opts: FleetOptions, fleet: PlacedFleet, io: FleetIo): Promise<number> | number;
      }
  );
