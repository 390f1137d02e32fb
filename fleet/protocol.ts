// Messages between the fleet command and its shard workers (one child process per lane of the
// fleet's parallelism, running that lane's shards one at a time, over Node's IPC channel). Running
// shards never share a process, so one shard's failure — an unhandled rejection in its program, a
// crash — cannot be counted against the shards running beside it.
import type { Face } from "../sdk/nodejs/internal/face";
import type { TenantEntry } from "../sdk/nodejs/tenantsFile";
import type { ShardDns } from "./dns/types";
import type { ShardDrift } from "./drift/types";
import type { StepCounts } from "./stepCounts";
import type { LeftoverLine, ResourceChange } from "./html/runChanges";
import type { RotationOutcome } from "./rotate/types";

export type ShardOperation = "up" | "preview" | "refresh" | "destroy" | "drift" | "dns" | "rotate";

export interface ShardJob {
  operation: ShardOperation;
  shard: number;
  stackName: string;
  /** The fleet's id (placement file): tagged on the stack when this run creates it (`txmail-fleet:id`). */
  fleetId: string;
  /** The shard stacks' Pulumi project (--project), for the stack's full name in messages. */
  project: string;
  /** Holds Pulumi.yaml of the fleet's project and each shard stack's settings file. */
  workDir: string;
  /**
   * The shard's tenants as the fleet command read them from the tenants file (so a worker never
   * parses the whole file again for its shard); empty for a shard whose tenants all left.
   */
  entries: TenantEntry[];
  /** How the program registers the tenants' resources: the fleet's face (placement file). */
  face: Face;
  policyPacks: string[];
  policyPackConfigs: string[];
  secretsProvider?: string;
  /** `--debug`: the engine shows debug messages, and the program sends the SDK's (sdkDebugMessages.ts). */
  debug: boolean;
  /** The engine's output of this run goes here (it masks secrets). */
  logFile: string;
  /** drift: also list what each tenant's sub account holds that the stack does not manage. */
  inventory?: boolean;
  /**
   * up: only these resources (and what depends on them), refreshed first — the drift remediation:
   * the service's changes are read, then undone; a resource deleted at the service is made again.
   */
  remediate?: string[];
  /** dns: ask the service to check each domain's DNS once (`check-dns`) before reading it. */
  checkDns?: boolean;
  /** rotate: the URNs of the credentials due (their up targets them, and what depends on them). */
  rotate?: string[];
}

export type WorkerMessage =
  | { type: "progress"; counts: StepCounts }
  | { type: "error"; message: string }
  | { type: "policy"; message: string }
  /** Something the fleet's output should say about the shard's run that is not an error (a retry). */
  | { type: "notice"; message: string }
  /** What a drift check found (sent before its `done`). */
  | { type: "drift"; report: ShardDrift }
  /** What a dns read found (sent before its `done`): records and states, never a key. */
  | { type: "dns"; report: ShardDns }
  /** What a rotation left on each targeted credential (sent before its `done`): times and counts, never a secret. */
  | { type: "rotation"; outcomes: RotationOutcome[] }
  /** `leftovers`: what the provider reported as likely leftovers (`<Kind> <id>`, provider/core/leftovers.ts). */
  | {
      type: "done";
      ok: boolean;
      counts: StepCounts;
      error?: string;
      leftovers?: string[];
      /** Each resource the run changed or failed on, and the leftovers' lines (the HTML report's). */
      changes?: ResourceChange[];
      leftoverLines?: LeftoverLine[];
    };
