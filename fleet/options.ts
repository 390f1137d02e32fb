// What a txmail-fleet run was asked, once its command line is read (fleet/args.ts): the options
// every command module (fleet/commands) is given, and the error that names a bad flag. Apart from
// the parser so that the commands, which the parser asks for their flags, never import it back.
import type { Face } from "../sdk/nodejs/internal/face";

export const OPERATIONS = [
  "up",
  "preview",
  "refresh",
  "destroy",
  "place",
  "output",
  "drift",
  "dns",
  "report",
  "rotate",
] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface FleetOptions {
  operation: Operation;
  tenantsFile: string;
  placementFile?: string;
  /**
   * No placement file: rebuild it from the shard stacks of this fleet id ("untagged": stacks made
   * before fleets had ids) instead of refusing to touch them.
   */
  adopt?: string;
  /** Undefined: the placement file's size, else the default. */
  shardSize?: number;
  /** For a new fleet (no placement file yet); undefined: the default. An existing fleet keeps its own. */
  face?: Face;
  parallel: number;
  /** Runner `index` (1-based) of `count`: shards k with (k − 1) mod count = index − 1. */
  runner?: { index: number; count: number };
  tenants: string[];
  project: string;
  workDir?: string;
  policyPacks: string[];
  policyPackConfigs: string[];
  secretsProvider?: string;
  /** Fail instead of placing new tenants or forgetting removed ones (CI runs a committed placement). */
  frozen: boolean;
  progressSeconds: number;
  /** Debug messages of the engine and the shard programs in each shard's log. */
  debug: boolean;
  /**
   * The engine saves a shard's state after every step (its default) instead of once per run
   * (PULUMI_SKIP_CHECKPOINTS, the fleet's default: made safe by the idempotency keys).
   */
  saveEveryStep: boolean;
  /** `output`: print the tenant's credentials in plain text instead of "[secret]". */
  showSecrets: boolean;
  /** Said once on stderr before the run (a deprecated flag, with the one that replaces it). */
  warnings: string[];
  /** up, preview, refresh, destroy, drift, dns: the report as JSON on stdout (progress goes to stderr). */
  json: boolean;
  /** The run's report as one self-contained HTML page here (fleet/html); `report`: where to write it. */
  htmlFile?: string;
  /** report: the run's JSON report to read. */
  fromFile?: string;
  /** report, and runs with --html: a previous run's JSON report, for what changed since. */
  compareFile?: string;
  /** dns: the records as a BIND zone-file fragment on stdout (progress goes to stderr). */
  zone: boolean;
  /** dns: only the records the service requires, not the optional ones. */
  requiredOnly: boolean;
  /** dns: ask the service to check each domain's DNS once (`check-dns`, a write) before reading it. */
  checkDns: boolean;
  /** drift: also write the report as Markdown here (e.g. $GITHUB_STEP_SUMMARY). */
  markdownFile?: string;
  /** drift: run `up` on the drifted resources afterwards. */
  remediate: boolean;
  /** drift: skip listing what the service holds that no stack manages. */
  noInventory: boolean;
  /** drift: ids of objects the inventory does not report (e.g. the parent account's keys managed elsewhere). */
  ignore: string[];
  /**
   * rotate: also rotate now every credential on a schedule whose current key is at least this old
   * (`30d`, `12h`: the schedule's grammar), given to the provider as TXMAIL_ROTATE_OLDER_THAN.
   */
  olderThan?: string;
}

export class UsageError extends Error {
  override readonly name = "UsageError";
}
