// The fleet command's run: place the tenants, pick the shards, drive each shard stack in a worker
// with bounded parallelism, report as it goes, and answer with the exit code (0: every shard ran and
// succeeded; 1: a shard failed or was not run; the others always finish first).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { loadTenantsFile, type TenantEntry } from "../sdk/nodejs/tenantsFile";
import { type FleetOptions, UsageError } from "./args";
import { isMap, isSeq, LineCounter, parseDocument } from "yaml";
import {
  type ShardStack,
  censusWorkspace,
  heldBy,
  moveShardTenants,
  newFleetId,
  readStacks,
  readTenants,
  tagStack,
} from "./census";
import { DEFAULT_FACE, DEFAULT_SHARD_SIZE, shardStackName } from "./defaults";
import { checkFace, checkMoves, checkOwnership, frozenDifferences, originWithoutPlacement } from "./ownership";
import { emptyPlacement, place, type Placement, type PlacementChange, shardOf, tenantsOf } from "./placement";
import { tenantOutputs } from "./output";
import { FLEET_ID, placementPathFor, readPlacement, writePlacement } from "./placementFile";
import { runBounded } from "./pool";
import type { ShardJob } from "./protocol";
import { leftoversLine, runningLine, shardDoneLine, summaryTable } from "./report";
import { selectShards } from "./selection";
import type { StepCounts } from "./stepCounts";
import { packageModulesDir, prepareWorkDir } from "./workDir";
import type * as DnsRun from "./dns/run";
import type * as DriftRun from "./drift/run";
import type * as HtmlWrite from "./html/write";
import { runReport } from "./html/runReport";
import { type ShardListener, type ShardResult, WorkerLane } from "./workerLane";

export interface FleetIo {
  out(line: string): void;
  /** A command's result for programs (drift --json): stdout, while `out` may go to stderr. */
  result?(text: string): void;
  /** Set by the CLI on Ctrl-C: running shards finish, no new shard starts. */
  interrupted(): boolean;
}

const PACKAGE_ROOT = path.resolve(__dirname, "..", "..");

/** In the work dir: the fleet's id, beside the shards' settings (fleet/census.ts). */
const FLEET_ID_FILE = "fleet-id";

/** The tenants file read and placed: what every operation starts from. */
export interface PlacedFleet {
  tenantsFile: string;
  placementFile: string;
  entries: Map<string, TenantEntry>;
  previous: Placement | undefined;
  shardSize: number;
  change: PlacementChange;
}

export async function runFleet(opts: FleetOptions, io: FleetIo): Promise<number> {
  // Reads a report file only: no tenants file, no stack.
  if (opts.operation === "report") return (require("./html/write") as typeof HtmlWrite).runReportCommand(opts, io.out);
  if (opts.operation === "output") return showOutput(opts, placeFleet(opts), io);
  const fleet = await placeAgainstStacks(opts, io);
  if (opts.operation === "place") return listShards(fleet, io);
  // Loaded only for drift: its inventory brings the policy pack's rules.
  if (opts.operation === "drift") return (require("./drift/run") as typeof DriftRun).runDrift(opts, fleet, io);
  if (opts.operation === "dns") return (require("./dns/run") as typeof DnsRun).runDns(opts, fleet, io);
  return runShards(opts, fleet, io);
}

/** Reads the tenants file and the placement, and places the tenants (nothing read from the backend). */
function placeFleet(
  opts: FleetOptions,
  from?: { previous: Placement | undefined; held?: ReadonlyMap<string, number> },
): PlacedFleet {
  const tenantsFile = opts.tenantsFile;
  const placementFile = opts.placementFile ?? placementPathFor(tenantsFile);
  const entries = new Map(loadTenantsFile(tenantsFile).tenants.map((t) => [t.name, t]));
  const previous = from ? from.previous : readPlacement(placementFile);
  const shardSize = opts.shardSize ?? previous?.shardSize ?? DEFAULT_SHARD_SIZE;
  if (previous && opts.face && opts.face !== previous.face) {
    throw new UsageError(
      `--face: this fleet's resources are ${previous.face} (${placementFile}); switching to ${opts.face} would give ` +
        `every resource another type, which the engine replaces (new objects at the service)`,
    );
  }
  const formerNames = new Map([...entries.values()].map((t) => [t.name, t.formerNames ?? []]));
  const change = place(
    previous ?? emptyPlacement(shardSize, opts.face ?? DEFAULT_FACE),
    [...entries.keys()],
    shardSize,
    formerNames,
    from?.held,
  );
  return { tenantsFile, placementFile, entries, previous, shardSize, change };
}

/**
 * Places the tenants against what the state backend holds, before anything is written: the
 * project's shard stacks and their owners always; for `up`, `place`, `--frozen` and a lost
 * placement file also the tenants each of this fleet's stacks holds (one `pulumi stack export` per
 * shard). Refuses another fleet's stacks, a face the stacks do not have, and under --frozen any
 * difference; then (`up`, `place`) tags adopted stacks, moves tenants in the state, and writes the
 * placement.
 */
async function placeAgainstStacks(opts: FleetOptions, io: FleetIo): Promise<PlacedFleet> {
  const placementFile = opts.placementFile ?? placementPathFor(opts.tenantsFile);
  const workDir = workDirOf(opts, opts.tenantsFile);
  prepareWorkDir(workDir, opts.project);
  const fileShows = readPlacement(placementFile);
  // Read now so a bad tenants file fails before the backend is asked anything.
  placeFleet(opts, { previous: fileShows });
  const recordedId = readRecordedFleetId(workDir);
  const adoptId = opts.adopt === "untagged" ? undefined : opts.adopt;
  const ws = await censusWorkspace(workDir, opts.secretsProvider);
  const census = await readStacks(ws, fileShows?.fleetId ?? adoptId ?? recordedId, io.out);
  let previous = fileShows;
  let fleetId: string;
  let adopt: number[] = [];
  let rebuilt = false;
  if (!previous) {
    const origin = originWithoutPlacement([...census.stacks.values()], {
      fleetId: recordedId,
      adopt: opts.adopt,
      newId: newFleetId(),
      project: opts.project,
      placementFile,
    });
    fleetId = origin.fleetId;
    if (origin.kind === "rebuild") {
      rebuilt = true;
      adopt = origin.adopt;
      await readTenants(ws, census, origin.shards, opts.parallel);
      const face = origin.shards.map((s) => census.stacks.get(s)?.face).find((f) => f !== undefined);
      previous = {
        ...emptyPlacement(opts.shardSize ?? DEFAULT_SHARD_SIZE, face ?? opts.face ?? DEFAULT_FACE, fleetId),
        shards: origin.shards,
      };
    }
  } else {
    fleetId = previous.fleetId ?? newFleetId();
  }
  const ours = [...census.stacks.values()].filter(
    (s) => s.owner === fleetId || (s.owner === undefined && (previous?.shards.includes(s.shard) ?? false)),
  );
  const deep = rebuilt || opts.frozen || opts.operation === "up" || opts.operation === "place";
  if (deep && !rebuilt)
    await readTenants(
      ws,
      census,
      ours.map((s) => s.shard),
      opts.parallel,
    );
  const heldAll = heldBy({ stacks: new Map(ours.map((s) => [s.shard, s])) });
  // A tenant in two stacks (a move cut short): where the placement puts it; the other copy is taken out.
  const held = new Map<string, number>();
  const finishing: PlacementChange["moves"] = [];
  for (const [tenant, shards] of heldAll) {
    const placed = previous ? shardOf(previous, tenant) : undefined;
    const keep = placed !== undefined && shards.includes(placed) ? placed : shards[0]!;
    held.set(tenant, keep);
    for (const other of shards) if (other !== keep) finishing.push({ tenant, from: other, to: keep });
  }
  const fleet = placeFleet(opts, { previous, held: deep ? held : undefined });
  const { change } = fleet;
  change.placement.fleetId = fleetId;
  change.moves.push(...finishing);
  if (previous) checkFace(change.placement.face, ours, placementFile);
  checkMoves(change, heldAll);
  adopt = [
    ...new Set([
      ...adopt,
      ...checkOwnership({ ...change.placement, fleetId }, previous?.shards ?? [], census.stacks).adopt,
    ]),
  ];
  for (const warning of renamesWithoutFormerNames(fleet, ours)) io.out(`warning: ${warning}`);
  reportPlacement(opts, fleet, io, {
    rebuilt: rebuilt ? ours.length : undefined,
    idChanged: fileShows?.fleetId !== fleetId,
  });
  if (opts.operation === "up" || opts.operation === "place") {
    for (const shard of adopt) await tagStack(ws, shard, fleetId);
    if (change.moves.length > 0) {
      await moveShardTenants(
        ws,
        change.moves,
        { project: opts.project, fleetId, exists: (s) => census.stacks.has(s) },
        io.out,
      );
    }
    writeRecordedFleetId(workDir, fleetId);
  } else if (change.moves.length > 0) {
    // Nothing moves without up or place: this run sees each tenant where its stack holds it.
    io.out(`not moved by ${opts.operation} (run 'txmail-fleet place' to move them): run where their stacks hold them`);
    for (const m of change.moves) change.placement.tenants[m.tenant] = m.from;
  }
  return fleet;
}

/**
 * A tenant removed from the file whose domain (as its stack holds it) a new tenant now has: most
 * likely a rename without `formerNames`, which would delete the old tenant's objects and make new
 * ones (new keys). Said with the line to add; the file stays valid (it may be a real hand-over).
 */
export function renamesWithoutFormerNames(fleet: PlacedFleet, stacks: readonly ShardStack[]): string[] {
  const removedDomain = new Map<string, { tenant: string; shard: number }>();
  for (const r of fleet.change.removed) {
    const domain = stacks.find((s) => s.shard === r.shard)?.domains?.get(r.tenant);
    if (domain) removedDomain.set(domain.toLowerCase(), r);
  }
  if (removedDomain.size === 0) return [];
  const lines = entryLines(fleet.tenantsFile);
  return fleet.change.added.flatMap(({ tenant }) => {
    const domain = fleet.entries.get(tenant)?.domain?.toLowerCase();
    const old = domain === undefined ? undefined : removedDomain.get(domain);
    if (!old) return [];
    return [
      `${fleet.tenantsFile}:${lines.get(tenant) ?? "?"}: new tenant '${tenant}' has the domain ${domain} of removed tenant ` +
        `'${old.tenant}' (${shardStackName(old.shard)}): as written, its up deletes '${old.tenant}''s objects and keys and ` +
        `makes new ones. If it is a rename, add to its entry: formerNames: [${old.tenant}]`,
    ];
  });
}

/** tenant name → `line:column` of its entry in the tenants file. */
function entryLines(file: string): Map<string, string> {
  const counter = new LineCounter();
  const doc = parseDocument(fs.readFileSync(file, "utf8"), { lineCounter: counter });
  const out = new Map<string, string>();
  const seq = doc.get("tenants", true);
  if (!isSeq(seq)) return out;
  for (const item of seq.items) {
    if (!isMap(item)) continue;
    const name = item.get("name");
    if (typeof name === "string" && item.range) {
      const pos = counter.linePos(item.range[0]);
      out.set(name, `${pos.line}:${pos.col}`);
    }
  }
  return out;
}

/** The fleet id recorded in the work dir, so a fleet whose placement file was renamed or lost finds its stacks. */
function readRecordedFleetId(workDir: string): string | undefined {
  try {
    const id = fs.readFileSync(path.join(workDir, FLEET_ID_FILE), "utf8").trim();
    return FLEET_ID.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

function writeRecordedFleetId(workDir: string, fleetId: string): void {
  if (readRecordedFleetId(workDir) !== fleetId) fs.writeFileSync(path.join(workDir, FLEET_ID_FILE), `${fleetId}\n`);
}

/** `output`: reads the tenant's shard stack only; stdout is the JSON alone, for `jq`. */
async function showOutput(opts: FleetOptions, fleet: PlacedFleet, io: FleetIo): Promise<number> {
  const { tenantsFile, placementFile, change } = fleet;
  const [shard] = selectShards(change, { tenants: opts.tenants }, { tenantsFile, placementFile });
  // The CLI runs in the work dir (the project's Pulumi.yaml), which a fresh checkout has not got yet.
  const workDir = workDirOf(opts, tenantsFile);
  prepareWorkDir(workDir, opts.project);
  const outputs = await tenantOutputs({
    tenant: opts.tenants[0]!,
    stackName: shardStackName(shard!),
    workDir,
    showSecrets: opts.showSecrets,
  });
  io.out(JSON.stringify(outputs, null, 2));
  return 0;
}

/** Says how the tenants are placed, refuses a change under --frozen, and saves it for `up` and `place`. */
function reportPlacement(
  opts: FleetOptions,
  fleet: PlacedFleet,
  io: FleetIo,
  stacks: { rebuilt?: number; idChanged: boolean },
): void {
  const { placementFile, previous, shardSize, change } = fleet;
  const first = previous === undefined && stacks.rebuilt === undefined;
  const idDrawn = previous !== undefined && stacks.rebuilt === undefined && stacks.idChanged;
  const placementChanged =
    !previous ||
    stacks.rebuilt !== undefined ||
    stacks.idChanged ||
    change.added.length > 0 ||
    change.removed.length > 0 ||
    change.renamed.length > 0 ||
    change.moves.length > 0 ||
    change.found.length > 0 ||
    shardSize !== previous.shardSize;
  if (opts.frozen && placementChanged) {
    const what = [describeChange(change, first, stacks.rebuilt, idDrawn), ...frozenDifferences(change)].join("; ");
    throw new UsageError(
      `--frozen: ${what}; nothing was run. Run 'txmail-fleet place' (it moves tenants in the state, keeping their ` +
        `objects) and commit ${placementFile}`,
    );
  }
  io.out(
    `placement: ${fleet.entries.size} tenants in ${change.placement.shards.length} shards of at most ${shardSize}, ${change.placement.face} face (${placementFile})` +
      (placementChanged ? `; ${describeChange(change, first, stacks.rebuilt, idDrawn)}` : ""),
  );
  // Only commands that act write the placement: a preview leaves the working tree as it found it.
  if ((opts.operation === "up" || opts.operation === "place") && placementChanged) {
    writePlacement(placementFile, change.placement);
  }
}

/** `place`: the shards and their tenants. */
function listShards(fleet: PlacedFleet, io: FleetIo): number {
  const { placement } = fleet.change;
  for (const shard of placement.shards) {
    io.out(`${shardStackName(shard)}: ${tenantsOf(placement, shard).join(", ") || "(no tenants)"}`);
  }
  return 0;
}

/** up, preview, refresh, destroy: the selected shards' jobs, run in workers, then the summary. */
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

/** `--json` (stdout) and `--html FILE`: the run's report (fleet/html/runReport.ts). */
export function writeReports(
  opts: FleetOptions,
  fleet: PlacedFleet,
  run: {
    jobs: readonly ShardJob[];
    results: readonly (ShardResult | undefined)[];
    started: number;
    exitCode: number;
    drift?: Parameters<typeof runReport>[0]["drift"];
    dns?: Parameters<typeof runReport>[0]["dns"];
  },
  io: FleetIo,
): void {
  if (!opts.json && !opts.htmlFile) return;
  const report = runReport({
    command: opts.operation,
    started: run.started,
    ended: Date.now(),
    fleet: { tenants: fleet.entries.size, shards: fleet.change.placement.shards.length },
    jobs: run.jobs.map((j) => ({ stackName: j.stackName, tenants: j.entries.map((e) => e.name) })),
    results: run.results,
    exitCode: run.exitCode,
    drift: run.drift,
    dns: run.dns,
  });
  if (opts.htmlFile) {
    const { writeHtmlReport } = require("./html/write") as typeof HtmlWrite;
    const bytes = writeHtmlReport(report, opts.htmlFile, opts.compareFile);
    io.out(`report: ${opts.htmlFile} (${(bytes / 1024).toFixed(0)} KiB)`);
  }
  // drift and dns print their own JSON (kept as it was); the run's report holds it under drift/dns.
  if (opts.json && !run.drift && !run.dns) (io.result ?? io.out)(JSON.stringify(report, null, 2));
}

export function shardJobs(opts: FleetOptions, fleet: PlacedFleet): ShardJob[] {
  const { tenantsFile, placementFile, entries, change } = fleet;
  const shards = selectShards(change, opts, { tenantsFile, placementFile });
  if (shards.length === 0) return [];
  const workDir = workDirOf(opts, tenantsFile);
  const { logsDir } = prepareWorkDir(workDir, opts.project);
  return shards.map((shard) => ({
    operation: opts.operation as ShardJob["operation"],
    shard,
    fleetId: change.placement.fleetId!,
    stackName: shardStackName(shard),
    project: opts.project,
    workDir,
    // Placement holds only names of this file, so every name has its entry.
    entries: tenantsOf(change.placement, shard).map((name) => entries.get(name)!),
    face: change.placement.face,
    policyPacks: opts.policyPacks,
    policyPackConfigs: opts.policyPackConfigs,
    secretsProvider: opts.secretsProvider,
    debug: opts.debug,
    logFile: path.join(logsDir, `${shardStackName(shard)}.${opts.operation}.log`),
  }));
}

/** Runs the jobs, opts.parallel at a time, with a progress line every opts.progressSeconds. */
export async function runInWorkers(
  opts: FleetOptions,
  jobs: ShardJob[],
  started: number,
  io: FleetIo,
  /** What drift and dns read, as each shard's worker sends it. */
  findings: Pick<ShardListener, "onDrift" | "onDns"> = {},
): Promise<(ShardResult | undefined)[]> {
  const running = new Map<string, StepCounts>();
  const finished: ShardResult[] = [];
  const heartbeat = setInterval(() => {
    if (running.size > 0) io.out(runningLine(running, finished.length, jobs.length, Date.now() - started));
  }, opts.progressSeconds * 1000);
  heartbeat.unref();
  const env = workerEnv(opts.saveEveryStep);
  const lanes = Array.from({ length: Math.min(opts.parallel, jobs.length) }, () => new WorkerLane(env));
  const results = await runBounded(
    jobs,
    opts.parallel,
    async (job, lane) => {
      const queuedMs = Date.now() - started;
      io.out(
        `[${job.stackName}] ${opts.operation}: ${job.entries.length} tenants${job.entries.length ? "" : " (its objects are deleted)"}`,
      );
      running.set(job.stackName, { created: 0, updated: 0, replaced: 0, deleted: 0, same: 0, failed: 0 });
      const result = await lanes[lane]!.run(job, {
        onProgress: (j, counts) => running.set(j.stackName, counts),
        onError: (j, message) => io.out(`[${j.stackName}] error: ${message}`),
        onPolicy: (j, message) => io.out(`[${j.stackName}] ${message}`),
        onNotice: (j, message) => io.out(`[${j.stackName}] ${message}`),
        ...findings,
      });
      running.delete(job.stackName);
      result.queuedMs = queuedMs;
      finished.push(result);
      io.out(shardDoneLine(result, finished.length, jobs.length, finished.filter((r) => !r.ok).length));
      return result;
    },
    io.interrupted,
  );
  for (const lane of lanes) lane.close();
  clearInterval(heartbeat);
  return results;
}

/** The summary table and the exit code: 1 when a shard failed or was not run. */
function summarize(
  opts: FleetOptions,
  jobs: ShardJob[],
  results: (ShardResult | undefined)[],
  started: number,
  io: FleetIo,
): number {
  const ran = results.filter((r): r is ShardResult => r !== undefined);
  const notRun = jobs.filter((_, i) => results[i] === undefined).map((j) => j.stackName);
  io.out("");
  io.out(summaryTable(ran, notRun));
  io.out(`${opts.operation} finished in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  const leftovers = leftoversLine(ran);
  if (leftovers) io.out(leftovers);
  const failed = ran.filter((r) => !r.ok);
  if (failed.length > 0 || notRun.length > 0) {
    io.out(
      `${failed.length} shard(s) failed${notRun.length ? `, ${notRun.length} not run (interrupted)` : ""}: ` +
        `run the same command again to continue — shards already up to date are no-ops`,
    );
    return 1;
  }
  return 0;
}

function workDirOf(opts: FleetOptions, tenantsFile: string): string {
  return opts.workDir ?? path.join(path.dirname(tenantsFile), ".txmail-fleet");
}

/**
 * The workers' environment, which the engine and the provider processes it starts inherit:
 * - NODE_PATH with the node_modules folder that holds pulumi-txmail (see packageModulesDir);
 * - PATH as it is: the native face's plugin is acquired by the engine as for every program, by the
 *   name, version and download URL the SDK's resources give (sdk/nodejs/internal/plugin.ts) — not the
 *   package's bin/ script, which needs Node and would shadow the plugin the user installed;
 * - Node's compile cache (Node ≥ 22.1; older versions ignore the variable), which keeps the compiled
 *   code of Pulumi's SDK on disk: every shard run starts a provider process that loads it again
 *   (~0.3 core-seconds saved per start). Kept where Node keeps it by default, unless the user chose;
 * - PULUMI_SKIP_CHECKPOINTS: the engine keeps state in memory and saves it once when the run ends
 *   (also a failed one), instead of rewriting the whole checkpoint before and after every step —
 *   2-3x faster. Only a killed run loses its edits, and the idempotency keys make its rerun replay
 *   what it had created (docs/guide/fleets.md#state-written-once-per-run). `--save-every-step` opts
 *   out; a value the user set wins;
 * - PULUMI_PARALLEL_DIFF: the engine diffs resources in parallel instead of one at a time (our
 *   diffs are pure functions of the inputs and state): no-op previews and ups of 240 tenants took
 *   7 % and 9 % less time (bench/RESULTS.md "Engine settings as fleet levers"). A value the user set wins.
 */
export function workerEnv(saveEveryStep: boolean, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const modulesDir = packageModulesDir(PACKAGE_ROOT);
  return {
    ...env,
    ...(modulesDir && { NODE_PATH: [modulesDir, env.NODE_PATH].filter(Boolean).join(path.delimiter) }),
    NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE ?? path.join(os.tmpdir(), "node-compile-cache"),
    PULUMI_SKIP_CHECKPOINTS: saveEveryStep ? "false" : (env.PULUMI_SKIP_CHECKPOINTS ?? "true"),
    PULUMI_PARALLEL_DIFF: env.PULUMI_PARALLEL_DIFF ?? "true",
  };
}

function describeChange(change: PlacementChange, first: boolean, rebuilt?: number, idDrawn?: boolean): string {
  const parts: string[] = [];
  if (idDrawn) parts.push(`this fleet's id ${change.placement.fleetId} recorded (its stacks are tagged with it)`);
  if (first) parts.push("no placement file yet");
  if (rebuilt !== undefined)
    parts.push(`no placement file: rebuilt from the ${rebuilt} shard stacks of fleet ${change.placement.fleetId}`);
  if (change.found.length) {
    parts.push(
      `kept where their stacks hold them: ${change.found.map((f) => `${f.tenant} in ${shardStackName(f.shard)}`).join(", ")}`,
    );
  }
  if (change.moves.length) {
    parts.push(
      `moved (in the state; their objects, ids and secrets stay): ${change.moves.map((m) => `${m.tenant} ${shardStackName(m.from)} → ${shardStackName(m.to)}`).join(", ")}`,
    );
  }
  if (change.added.length) {
    parts.push(`new: ${change.added.map((a) => `${a.tenant} → ${shardStackName(a.shard)}`).join(", ")}`);
  }
  if (change.renamed.length) {
    parts.push(
      `renamed (their objects stay): ${change.renamed.map((r) => `${r.from} → ${r.to} in ${shardStackName(r.shard)}`).join(", ")}`,
    );
  }
  if (change.removed.length) {
    parts.push(
      `removed (deleted by their shard's next up): ${change.removed.map((r) => `${r.tenant} from ${shardStackName(r.shard)}`).join(", ")}`,
    );
  }
  return parts.join("; ") || "shard size changed";
}
