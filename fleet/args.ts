// Command-line arguments of txmail-fleet, checked up front: a bad flag fails before any stack is
// touched, with a message naming the flag and the rule.
import * as path from "node:path";
import type { Face } from "../sdk/nodejs/internal/face";
import { DURATION_RULE, durationMs } from "../provider/api/duration";
import { COMMANDS } from "./commands";
import { type FleetOptions, type Operation, OPERATIONS, UsageError } from "./options";
import {
  DEFAULT_PARALLEL,
  DEFAULT_PROGRESS_SECONDS,
  DEFAULT_PROJECT,
  DEFAULT_SHARD_SIZE,
  MAX_PARALLEL,
  MAX_SHARD_SIZE,
} from "./defaults";

export { OPERATIONS, type Operation, type FleetOptions, UsageError } from "./options";

export const USAGE = `usage: txmail-fleet <up|preview|refresh|destroy|place|output|drift|dns|report|rotate> [options]

  --tenants FILE             the tenants file (default ./tenants.yaml)
  --placement FILE           tenant → shard record (default: beside the tenants file, <name>.placement.json)
  --adopt FLEET_ID           no placement file: rebuild it from the shard stacks tagged with this fleet
                             id ('untagged': stacks made before fleets had ids); each tenant stays put
  --shard-size N             most tenants per shard stack, for new placements (default: the placement
                             file's, else ${DEFAULT_SHARD_SIZE})
  --face dynamic|native      how a new fleet's resources are registered (default native: the txmail
                             plugin shipped in this package); a fleet keeps the face it was created with
  --parallel N               shard stacks run at once (default: one per CPU, at least 2; here ${DEFAULT_PARALLEL})
  --runner I/N               run only runner I's share of the shards (a CI matrix of N runners:
                             shards I, I+N, …); formerly --shard I/N, still accepted
  --tenant NAME              run only the shard holding NAME (repeatable)
  --project NAME             Pulumi project of the shard stacks (default ${DEFAULT_PROJECT})
  --work-dir DIR             the shard stacks' settings (default: .txmail-fleet beside the tenants file)
  --policy-pack DIR          run this policy pack on every shard (preview, up; repeatable)
  --policy-pack-config FILE  its configuration (repeatable)
  --secrets-provider P       secrets provider of new shard stacks (e.g. passphrase, awskms://…)
  --frozen                   fail if the tenants file needs a placement change (CI with a committed placement)
  --progress-seconds N       how often to report running shards (default ${DEFAULT_PROGRESS_SECONDS})
  --debug                    debug messages of the engine and the shard programs in each shard's log
                             (slower: the programs then send the SDK's debug messages too)
  --save-every-step          the engine saves each shard's state after every step, as it does by
                             default (2-3x slower); without it the fleet saves state once per run
                             (PULUMI_SKIP_CHECKPOINTS), which its idempotency keys make safe
  --show-secrets             output: the tenant's credentials in plain text (default: "[secret]")
  --json                     up, preview, refresh, destroy, drift, dns, rotate: the report as JSON on stdout
                             (progress on stderr)
  --html FILE                up, preview, refresh, destroy, drift, dns, report: the report as one
                             self-contained HTML page (opens offline; secrets masked as in --json)
  --from FILE                report: the run's JSON report to show (--json of a run)
  --compare FILE             report, and runs with --html: a previous run's JSON report; the page
                             shows what changed since
  --markdown FILE            drift: also write the report as Markdown to FILE (a CI job summary)
  --remediate                drift: then run up on the drifted resources only (refreshed first)
  --no-inventory             drift: skip listing the objects no shard stack manages
  --ignore ID                drift: an object the inventory must not report, e.g. a parent account
                             key managed elsewhere (repeatable)
  --zone                     dns: the records as a BIND zone-file fragment on stdout (progress on stderr)
  --required-only            dns: only the records the service requires (default: optional ones too)
  --check-dns                dns: first ask the service to check each domain's DNS, once (check-dns
                             is a write, rate-limited and not retried); default: what it saw last
  --older-than PERIOD        rotate: also rotate now every credential on a schedule whose current key
                             is at least PERIOD old (30d, 12h), whatever its schedule says

'drift' reads every shard's resources from the service and lists what no stack manages, writing
nothing; exit 0: no drift, 1: not everything could be checked, 2: bad usage, 3: drift or unmanaged
objects found (docs/guide/fleets.md#drift).

'dns' prints each tenant's domain records as the service holds them, read with the tenant's own key,
and whether the service has seen them; for a DNS team: --zone (or --json). Exit 0: every domain
verified, 1: a shard or domain could not be read, 2: bad usage, 3: a required record not seen yet
(docs/guide/fleets.md#handing-dns-to-another-team).

'report --from RUN.json --html FILE' writes a run's JSON report (--json) as one HTML page: the
tenants (searchable, filtered by status and shard), their changes, DNS and leftovers, the shards'
time (docs/guide/fleets.md#the-html-report).

'rotate' rotates the credentials on a schedule that are due (and revokes the previous ones past
their overlap) in the shards that hold some, with a targeted up, and prints one row per credential:
rotated, previous revoked or not due. Exit 0: all that was due was done; 1: a shard failed or was not
run (docs/guide/fleets.md#rotating-credentials).

'output --tenant NAME' prints that tenant's summary and credentials (keys, SMTP passwords, signing
secrets) from its shard stack, as JSON.

The connection comes from the environment (TXMAIL_API_KEY, TXMAIL_ACCOUNT_ID, TXMAIL_BASE_URL);
the backend from PULUMI_BACKEND_URL or your pulumi login.`;

export function parseArgs(argv: readonly string[], cwd = process.cwd()): FleetOptions {
  const [operation, ...rest] = argv;
  const opts = defaultOptions(operationOf(operation), cwd);
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith("--") && eq > 0 ? arg.slice(eq + 1) : undefined;
    const switched = SWITCHES.get(flag);
    if (switched !== undefined) {
      if (inline !== undefined) throw new UsageError(`${flag}: takes no value`);
      opts[switched] = true;
      continue;
    }
    const value = (): string => {
      const v = inline ?? rest[++i];
      if (v === undefined || v === "") throw new UsageError(`${flag}: needs a value`);
      return v;
    };
    applyValueFlag(opts, arg, flag, value, cwd);
  }
  checkCombinations(opts);
  return opts;
}

function operationOf(operation: string | undefined): Operation {
  if (operation === undefined || !(OPERATIONS as readonly string[]).includes(operation)) {
    throw new UsageError(`the command must be one of ${OPERATIONS.join(", ")}, got '${operation ?? ""}'`);
  }
  return operation as Operation;
}

function defaultOptions(operation: Operation, cwd: string): FleetOptions {
  return {
    operation,
    tenantsFile: path.resolve(cwd, "tenants.yaml"),
    parallel: DEFAULT_PARALLEL,
    tenants: [],
    project: DEFAULT_PROJECT,
    policyPacks: [],
    policyPackConfigs: [],
    frozen: false,
    progressSeconds: DEFAULT_PROGRESS_SECONDS,
    debug: false,
    saveEveryStep: false,
    showSecrets: false,
    warnings: [],
    json: false,
    zone: false,
    requiredOnly: false,
    checkDns: false,
    remediate: false,
    noInventory: false,
    ignore: [],
  };
}

/** Flags that take no value, and the option each turns on. */
const SWITCHES = new Map<
  string,
  | "frozen"
  | "debug"
  | "saveEveryStep"
  | "showSecrets"
  | "json"
  | "remediate"
  | "noInventory"
  | "zone"
  | "requiredOnly"
  | "checkDns"
>([
  ["--frozen", "frozen"],
  ["--debug", "debug"],
  ["--save-every-step", "saveEveryStep"],
  ["--show-secrets", "showSecrets"],
  ["--json", "json"],
  ["--remediate", "remediate"],
  ["--no-inventory", "noInventory"],
  ["--zone", "zone"],
  ["--required-only", "requiredOnly"],
  ["--check-dns", "checkDns"],
]);

/** Sets the option of `flag`; `value` reads its value (inline after `=`, else the next argument). */
function applyValueFlag(opts: FleetOptions, arg: string, flag: string, value: () => string, cwd: string): void {
  switch (flag) {
    case "--tenants":
      opts.tenantsFile = path.resolve(cwd, value());
      break;
    case "--placement":
      opts.placementFile = path.resolve(cwd, value());
      break;
    case "--adopt":
      opts.adopt = fleetIdOf(value());
      break;
    case "--shard-size":
      opts.shardSize = integer(flag, value(), 1, MAX_SHARD_SIZE);
      break;
    case "--face":
      opts.face = faceName(value());
      break;
    case "--parallel":
      opts.parallel = integer(flag, value(), 1, MAX_PARALLEL);
      break;
    case "--runner":
      opts.runner = runnerOfMatrix(flag, value());
      break;
    // Its old name: a shard is a stack everywhere else (shard-001), and this flag picks a runner.
    case "--shard":
      opts.runner = runnerOfMatrix(flag, value());
      if (!opts.warnings.some((w) => w.startsWith("--shard"))) {
        opts.warnings.push("--shard I/N is deprecated: use --runner I/N (the same share: runner I of N)");
      }
      break;
    case "--tenant":
      opts.tenants.push(value());
      break;
    case "--project":
      opts.project = projectName(value());
      break;
    case "--work-dir":
      opts.workDir = path.resolve(cwd, value());
      break;
    case "--policy-pack":
      opts.policyPacks.push(path.resolve(cwd, value()));
      break;
    case "--policy-pack-config":
      opts.policyPackConfigs.push(path.resolve(cwd, value()));
      break;
    case "--secrets-provider":
      opts.secretsProvider = value();
      break;
    case "--html":
      opts.htmlFile = path.resolve(cwd, value());
      break;
    case "--from":
      opts.fromFile = path.resolve(cwd, value());
      break;
    case "--compare":
      opts.compareFile = path.resolve(cwd, value());
      break;
    case "--markdown":
      opts.markdownFile = path.resolve(cwd, value());
      break;
    case "--ignore":
      opts.ignore.push(value());
      break;
    case "--older-than":
      opts.olderThan = period(flag, value());
      break;
    case "--progress-seconds":
      opts.progressSeconds = integer(flag, value(), 1, 3600);
      break;
    default:
      throw new UsageError(`unknown option '${arg}'`);
  }
}

/** Rules between flags, checked once all are read. */
function checkCombinations(opts: FleetOptions): void {
  if (opts.policyPacks.length > 0 && opts.operation !== "preview" && opts.operation !== "up") {
    throw new UsageError(`--policy-pack: only preview and up run policy packs, not ${opts.operation}`);
  }
  if (opts.operation === "output" && opts.tenants.length !== 1) {
    throw new UsageError(`output: needs exactly one --tenant NAME, got ${opts.tenants.length}`);
  }
  if (opts.showSecrets && opts.operation !== "output") {
    throw new UsageError(`--show-secrets: only output shows secrets, not ${opts.operation}`);
  }
  const reporting = ["up", "preview", "refresh", "destroy", "drift", "dns"];
  const json = [...reporting, "rotate"];
  if (opts.json && !json.includes(opts.operation)) {
    throw new UsageError(`--json: only ${json.join(", ")} take it, not ${opts.operation}`);
  }
  if (opts.htmlFile && !reporting.includes(opts.operation) && opts.operation !== "report") {
    throw new UsageError(`--html: only ${reporting.join(", ")} and report take it, not ${opts.operation}`);
  }
  if (opts.operation === "report" && (!opts.fromFile || !opts.htmlFile)) {
    throw new UsageError("report: needs --from RUN.json (a run's --json report) and --html FILE");
  }
  if (opts.fromFile && opts.operation !== "report") throw new UsageError(`--from: only report takes it`);
  if (opts.compareFile && !opts.htmlFile) throw new UsageError("--compare: needs --html FILE (the page shows it)");
  // Each command's own flags (fleet/commands), refused on the others (--show-secrets has its words above).
  for (const command of COMMANDS) {
    for (const [flag, option] of command.flags) {
      if (command.name === opts.operation || !given(opts[option])) continue;
      throw new UsageError(`${flag}: only ${command.name} takes it, not ${opts.operation}`);
    }
  }
  if (opts.zone && opts.json) throw new UsageError("--zone, --json: one document on stdout, choose one");
  if (opts.policyPackConfigs.length > 0 && opts.policyPacks.length === 0) {
    throw new UsageError(`--policy-pack-config: needs a --policy-pack`);
  }
}

/** An option a flag set: a switch on, a value, a list with an entry. */
function given(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== false;
}

function fleetIdOf(raw: string): string {
  if (raw !== "untagged" && !/^[A-Za-z0-9_-]{8,64}$/.test(raw)) {
    throw new UsageError(`--adopt: must be a fleet id (8 to 64 letters, digits, '-', '_') or 'untagged', got '${raw}'`);
  }
  return raw;
}

/** A period of the rotation schedule's grammar (provider/api/duration.ts): `30d`, `12h`. */
function period(flag: string, raw: string): string {
  if (durationMs(raw) === undefined) {
    throw new UsageError(`${flag}: must be ${DURATION_RULE}, got '${raw}'`);
  }
  return raw;
}

function faceName(raw: string): Face {
  if (raw !== "dynamic" && raw !== "native") {
    throw new UsageError(`--face: must be dynamic or native, got '${raw}'`);
  }
  return raw;
}

function integer(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag}: must be a whole number from ${min} to ${max}, got '${raw}'`);
  }
  return n;
}

/** `2/4` → runner 2 of 4. */
function runnerOfMatrix(flag: string, raw: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(raw);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) {
    throw new UsageError(`${flag}: must be I/N with 1 ≤ I ≤ N (runner I of a matrix of N), got '${raw}'`);
  }
  return { index, count };
}

function projectName(raw: string): string {
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(raw)) {
    throw new UsageError(`--project: must be letters, digits, '_', '.' or '-' (a Pulumi project name), got '${raw}'`);
  }
  return raw;
}
