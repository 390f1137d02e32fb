import * as os from "node:os";
import type { Face } from "../sdk/internal/face";

// Defaults of the fleet command, from the benchmark figures (bench/RESULTS.md, bench/HISTORY.md and
// issue 19, 2-core VM): `pulumi up` of 10, 50 and 200 tenants took 4.9 s, 18.2 s and 182 s. Those
// three points fit t(n) ≈ 3.6 + 0.09·n + 0.004·n² seconds: a fixed cost per stack run (engine,
// plugins, program start), a cost per tenant, and a cost growing with the stack, because the engine
// rewrites the whole checkpoint after every step. The time per tenant, t(n)/n, is lowest near
// n = √(3.6 / 0.004) ≈ 30 and within 10 % of that from 20 to 45 tenants; 30 also keeps a one-tenant
// change cheap (the shard's diff covers 30 tenants, not the fleet). Re-measured with the fleet itself
// (480 tenants, 4 at once; bench/HISTORY.md): shards of 30, 60 and 120 took 101 s, 123 s and 219 s
// to come up, and 43 s, 37 s and 31 s for a no-op preview; 30 keeps the up fastest. Again once the
// programs stopped sending the SDK's debug messages (2 at once): 30 → 89 s up, 37–44 s preview;
// 45 → 106 s, 27–37 s; 60 → 129 s, 25–31 s. Larger shards preview faster (fewer engine and provider
// starts) but come up slower, by more than they save.
export const DEFAULT_SHARD_SIZE = 30;

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
