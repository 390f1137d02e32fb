// A shard worker: runs operations on shard stacks through the Automation API with each shard's
// inline program, one job at a time, reporting step counts and errors to the fleet command over IPC.
// Started by fleet/workerLane.ts with `fork` and reused for the lane's next shards (a Node process
// and the loading of Pulumi's SDK cost ~0.8 core-seconds, paid once per lane instead of per shard);
// never run by hand.
import * as fs from "node:fs";
import { LocalWorkspace, PulumiCommand, Stack, StackNotFoundError, type EngineEvent } from "@pulumi/pulumi/automation";
import type { ShardJob, WorkerMessage } from "./protocol";
import { shardProgram } from "./shardProgram";
import { BACKEND_RACE_RETRIES, backendRaceDelayMs, isBackendTableRace, withoutBackendPassword } from "./backendRace";
import { lockedShardError } from "./stackLock";
import { countEvent, type StepCounts, zeroCounts } from "./stepCounts";
import { SALT_NOT_SAVED } from "../provider/core/freshSalt";
import { leftoversIn } from "../provider/core/leftovers";
import { ChangeCollector, type LeftoverLine, type ResourceChange } from "./html/runChanges";
import { sdkDebugMessages } from "./sdkDebugMessages";
import { FLEET_TAG } from "./defaults";
import type { ShardStep, ShardStepContext } from "./command";
import { commandNamed } from "./commands";

function send(message: WorkerMessage): Promise<void> {
  // The fleet command may be gone (killed): the run still finishes, unreported.
  if (!process.connected) return Promise.resolve();
  return new Promise((resolve) => process.send!(message, undefined, {}, () => resolve()));
}

/**
 * The CLI, looked up once per worker: `PulumiCommand.get` runs `pulumi version` (and checks it is
 * recent enough), which every LocalWorkspace would otherwise repeat for every shard.
 */
let cli: Promise<PulumiCommand> | undefined;
const pulumiCli = () => (cli ??= PulumiCommand.get());

/**
 * The fleet reads what a run did from the engine's events. The Automation API follows every up,
 * refresh and destroy with three more CLI runs whose answers the fleet never reads (`stack output`
 * twice, `stack history`), each loading and decrypting the shard's whole state: ~1 core-second a
 * shard. This stack answers those two reads without running them.
 */
function withoutFollowUpReads(stack: Stack): Stack {
  stack.outputs = async () => ({});
  stack.info = async () => undefined;
  return stack;
}

/**
 * The shard's stack, without the `pulumi stack select` that Stack.select and createOrSelectStack
 * run first (~0.2 core-seconds and half a second a shard). Every operation names its stack
 * (`--stack`), so that select would only prove the stack exists; on a stack that does not, the
 * operation itself fails at once, before the engine starts, with StackNotFoundError.
 */
async function stackTakenAsExisting(name: string, workspace: LocalWorkspace): Promise<Stack> {
  workspace.selectStack = async () => undefined;
  try {
    return await Stack.select(name, workspace);
  } finally {
    delete (workspace as { selectStack?: unknown }).selectStack; // the class's own, for createOrSelect
  }
}

/** What every operation of a shard run is given: the event and output handlers, the display. */
type CommonOptions = ShardStepContext["common"];

/** The job's command's step on its shard stack (fleet/commands). */
function stepOf(job: ShardJob): ShardStep {
  const step = commandNamed(job.operation).shard;
  if (!step) throw new Error(`txmail-fleet ${job.operation} runs no shard`);
  return step;
}

/** What the engine's events of one shard job have told so far. */
interface RunTally {
  counts: StepCounts;
  events: number;
  /**
   * Creates refused because the stack's salt is new in this run and not saved yet (its first run,
   * state written once per run): expected, not shard errors; the run is made again at once.
   */
  saltRefusals: number;
  otherErrors: number;
  /** Likely leftovers the provider reported (`<Kind> <id>`), each once. */
  leftovers: Set<string>;
  /** Each resource's change and the leftovers' lines, for the HTML report (fleet/html). */
  changes: ChangeCollector;
}

async function run(job: ShardJob): Promise<void> {
  const { preview } = stepOf(job);
  const tally: RunTally = {
    counts: zeroCounts(),
    events: 0,
    saltRefusals: 0,
    otherErrors: 0,
    leftovers: new Set(),
    changes: new ChangeCollector(preview),
  };
  const log = fs.openSync(job.logFile, "a");
  const common: CommonOptions = {
    onEvent: engineEventHandler(job, tally),
    onOutput: (s: string) => fs.writeSync(log, s),
    color: "never",
    // The engine shows debug messages (its own and the program's) in the shard's log.
    debug: job.debug,
  };
  sdkDebugMessages(job.debug);
  // Read by the Tenant components of the program (sdk/nodejs/internal/face.ts) as it runs, in this process.
  process.env.TXMAIL_FACE = job.face;
  try {
    await runUntilSettled(job, common, tally, log);
    await send({
      type: "done",
      ok: tally.counts.failed === 0,
      counts: tally.counts,
      leftovers: [...tally.leftovers],
      ...collected(tally),
    });
  } catch (e) {
    const message = withoutBackendPassword(e instanceof Error ? e.message : String(e));
    fs.writeSync(log, `\n${message}\n`);
    const locked = lockedShardError(message, { project: job.project, name: job.stackName });
    await send({
      type: "done",
      ok: false,
      counts: tally.counts,
      error: locked ?? firstMeaningfulLine(message),
      leftovers: [...tally.leftovers],
      ...collected(tally),
    });
  } finally {
    fs.closeSync(log);
  }
}

/** What the run changed and left over, per resource (drift and dns report their own findings). */
function collected(tally: RunTally): { changes: ResourceChange[]; leftoverLines: LeftoverLine[] } {
  return { changes: tally.changes.changes(), leftoverLines: tally.changes.leftoverLines() };
}

/** Counts the steps (reported as progress), and reports policy findings and errors as they come. */
function engineEventHandler(job: ShardJob, tally: RunTally): (event: EngineEvent) => void {
  // A preview counts what would change; drift's check, a refresh preview, what it read (fleet/commands).
  const { preview } = stepOf(job);
  return (event) => {
    tally.events++;
    tally.changes.add(event);
    if (countEvent(tally.counts, event, preview)) void send({ type: "progress", counts: { ...tally.counts } });
    // Policy findings, mandatory or advisory, name the rule and the resource: a failed preview
    // says why without opening the engine log.
    const policy = event.policyEvent;
    if (policy) {
      const where = policy.resourceUrn ? `${policy.resourceUrn.split("::").pop()}: ` : "";
      const level =
        policy.enforcementLevel === "mandatory" ? "policy violation (mandatory)" : "policy finding (advisory)";
      void send({ type: "policy", message: `${level} ${policy.policyName}: ${where}${policy.message.trim()}` });
    }
    const diag = event.diagnosticEvent;
    // Objects the provider could not prove its own, left alone: said as they come, summed at the end.
    for (const leftover of diag?.severity === "warning" ? leftoversIn(diag.message) : []) {
      if (tally.leftovers.has(leftover)) continue;
      tally.leftovers.add(leftover);
      const where = diag!.urn ? `${diag!.urn.split("::").pop()}: ` : "";
      void send({ type: "notice", message: `warning: ${where}${diag!.message.trim()}` });
    }
    if (diag && diag.severity === "error" && diag.message.includes(SALT_NOT_SAVED)) {
      tally.saltRefusals++;
      return;
    }
    if (diag && diag.severity === "error" && diag.message.trim()) {
      if (diag.urn) tally.otherErrors++;
      const where = diag.urn ? `${diag.urn.split("::").pop()}: ` : "";
      void send({ type: "error", message: `${where}${diag.message.trim()}` });
    }
  };
}

/**
 * Runs the job's operation until it ends: once more after a run whose only errors were the creates
 * refused for a salt drawn in that run (a shard made before salts were pinned, on the native face
 * after a plugin upgrade), and again after a lost race to create the state backend's table. Throws
 * the error of a run that failed otherwise.
 */
async function runUntilSettled(job: ShardJob, common: CommonOptions, tally: RunTally, log: number): Promise<void> {
  const { counts } = tally;
  // Steps of the salt's first run that the next run finds done and counts as unchanged.
  let countedBefore = 0;
  const runAgain = async () => {
    const note =
      "the run saved the stack's new salt before creating anything (state is written once per run): running again";
    fs.writeSync(log, `\n${note}\n`);
    await send({ type: "notice", message: note });
    // What the first run did stays counted (the components, the salt); its refusals do not.
    countedBefore += counts.created + counts.updated + counts.replaced;
    Object.assign(counts, { same: 0, failed: 0 });
    await send({ type: "progress", counts: { ...counts } });
  };
  for (let attempt = 1, saltRuns = 0; ; attempt++) {
    const eventsBefore = tally.events;
    tally.saltRefusals = tally.otherErrors = 0;
    try {
      await runOnStack(job, common, counts);
      break;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (tally.saltRefusals > 0 && tally.otherErrors === 0 && saltRuns++ === 0) {
        await runAgain();
        continue;
      }
      // Only a run that lost the race to create the backend's table, and so did nothing else.
      const retry = attempt <= BACKEND_RACE_RETRIES && tally.events === eventsBefore && isBackendTableRace(message);
      if (!retry) throw e;
      await waitOutBackendRace(attempt, message, log);
    }
  }
  counts.same = Math.max(0, counts.same - countedBefore);
}

async function waitOutBackendRace(attempt: number, message: string, log: number): Promise<void> {
  const delayMs = backendRaceDelayMs(attempt);
  const note =
    `the state backend's table was being created by another run at the same moment (nothing ran): ` +
    `retry ${attempt} of ${BACKEND_RACE_RETRIES} in ${(delayMs / 1000).toFixed(1)} s`;
  fs.writeSync(log, `\n${withoutBackendPassword(message)}\n${note}\n`);
  await send({ type: "notice", message: note });
  await new Promise((resolve) => setTimeout(resolve, delayMs));
}

/**
 * One run of the job's operation on its shard stack, created by its first run. The shard's salt is
 * born in its state (never in the work directory's settings, which may be copied or committed:
 * provider/core/pinnedSalt.ts), so a new shard's first run with state written once per run saves
 * the salt and refuses its creates, and runUntilSettled runs it once more.
 */
async function runOnStack(job: ShardJob, common: CommonOptions, counts: StepCounts): Promise<void> {
  const workspace = await LocalWorkspace.create({
    workDir: job.workDir, // holds the fleet project's Pulumi.yaml
    program: shardProgram(job.entries),
    secretsProvider: job.secretsProvider,
    pulumiCommand: await pulumiCli(),
  });
  const step = stepOf(job);
  const operate = (stack: Stack) => step.run(withoutFollowUpReads(stack), job, { common, counts, send });
  try {
    await operate(await stackTakenAsExisting(job.stackName, workspace));
  } catch (e) {
    if (!(e instanceof StackNotFoundError)) throw e;
    // A check never creates what it checks (dns reports a shard never applied before it gets here).
    if (step.readsOnly) {
      throw new Error(`error: ${job.stackName} does not exist yet: run 'txmail-fleet up' first`, { cause: e });
    }
    // The shard's first run: create its stack (`stack init`), record which fleet made it (another
    // fleet on the same backend and project refuses to run it), then run the operation on it.
    const stack = await Stack.createOrSelect(job.stackName, workspace);
    await stack.setTag(FLEET_TAG, job.fleetId);
    await operate(stack);
  }
}

/** The Automation API's error text starts with the command line and its exit code; keep the first real line. */
function firstMeaningfulLine(message: string): string {
  const lines = message.split("\n").map((l) => l.trim());
  const err = lines.find((l) => /^error: /.test(l));
  return (err ?? lines.find((l) => l.length > 0) ?? "failed").slice(0, 300);
}

// Ctrl-C reaches the whole process group: the engine then finishes the steps in flight and records
// them (a second Ctrl-C stops it at once). This worker must stay to hear how it ended.
process.on("SIGINT", () => undefined);
// One job at a time: the lane sends the next only after this one's `done`.
let running = false;
process.on("message", (job: ShardJob) => {
  running = true;
  void run(job).finally(() => {
    running = false;
    if (!process.connected) process.exit(0);
  });
});
// The lane disconnects when it has no more shards. Exit then, even with handles left open (a
// keep-alive socket of the last run), so the fleet's end is not held up. If the fleet command is
// gone (killed) while a shard runs, the run still finishes first: the engine needs this process,
// which serves the shard's program, until its last step is recorded.
process.on("disconnect", () => {
  if (!running) process.exit(0);
});
