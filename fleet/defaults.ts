import * as os from "node:os";
import type { Face } from "../sdk/nodejs/internal/face";

// Defaults of the fleet command, from the benchmark figures (bench/RESULTS.md, bench/HISTORY.md and
// issue 19, 2-core VM).
//
// Shard size: a fixed cost per shard run (engine, provider process, program start), a cost per
// tenant, and for an up a cost growing with the stack, because the engine rewrites the whole
// checkpoint after every step. So larger shards make a no-op preview cheaper (fewer engine and
// provider starts) and an up dearer. Measured with the fleet itself, 480 tenants, native face, 2 at
// once (bench/HISTORY.md, 2026-11-24): shards of 30 → up 87 s, preview 29–32 s; 45 → 103 s, 28–30 s;
// 60 → 121 s, 22–24 s. For 1 000 tenants that is an up within 5 minutes at every size but a no-op
// preview within a minute only from ~45 on; 60 keeps both inside the goals with room, and a
// pull request's preview (the command CI runs most) a quarter faster than at 30. An existing fleet
// keeps the size in its placement file; `--shard-size 30` suits fleets that mostly change.
export const DEFAULT_SHARD_SIZE = 60;

// One shard run at a time per core. A shard run is mostly CPU (engine, program, provider process);
// its waits (RPCs between them, the service's answers) are short. Measured on this 2-core machine
// with 480 tenants in shards of 30 (bench/HISTORY.md): 2 at once brought them up in 89 s, 4 in 94 s,
// and previewed them as fast (34–35 s either way); more only queue. Never fewer than 2, so one
// shard's waits overlap another's work.
/** Upper bound of --parallel: catches a typo (`--parallel 400`) rather than limiting a real fleet. */
export const MAX_PARALLEL = 64;
export const DEFAULT_PARALLEL = Math.min(MAX_PARALLEL, Math.max(2, os.availableParallelism()));

// The face of a new fleet's resources: native (the `txmail` provider plugin, run from this package).
// Measured on 120 tenants in shards of 60 (bench/HISTORY.md): up 33.0 s against 35.9 s dynamic, a
// no-op preview 8.0 s against 9.2 s. Its provider process loads only the provider and gRPC, where the
// dynamic one loads all of Pulumi's SDK, and its state carries no serialized provider per resource.
export const DEFAULT_FACE: Face = "native";

/** Upper bound of --shard-size: catches a typo rather than limiting a real fleet. */
export const MAX_SHARD_SIZE = 1000;

export const DEFAULT_PROJECT = "txmail-fleet";

/** How often a line reports the shards still running. */
export const DEFAULT_PROGRESS_SECONDS = 10;

/** Stack name of shard k: zero-padded so stacks list in shard order. */
export function shardStackName(shard: number): string {
  return `shard-${String(shard).padStart(3, "0")}`;
}

/** The stack tag naming the fleet that made a shard stack (its id, kept in the placement file). */
export const FLEET_TAG = "txmail-fleet:id";
