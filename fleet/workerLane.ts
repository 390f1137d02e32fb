// One lane of the fleet's bounded parallelism: a worker process (fleet/worker.ts) that runs the
// lane's shards one after another, forked when the lane starts its first shard and reused for the
// next. A shard never shares its process with another running shard, so a crash (an unhandled
// rejection in a program, out of memory) fails only the shard running in it: the lane reports that
// shard failed, never hangs, and forks a fresh worker for its next shard.
import { type ChildProcess, fork } from "node:child_process";
import * as path from "node:path";
import type { ShardDns } from "./dns/types";
import type { ShardDrift } from "./drift/types";
import type { RotationOutcome } from "./rotate/types";
import type { ShardJob, WorkerMessage } from "./protocol";
import { type StepCounts, zeroCounts } from "./stepCounts";
import type { LeftoverLine, ResourceChange } from "./html/runChanges";

export interface ShardResult {
  shard: number;
  stackName: string;
  ok: boolean;
  counts: StepCounts;
  durationMs: number;
  error?: string;
  logFile: string;
  /** Likely leftovers the provider reported (`<Kind> <id>`): objects it could not prove its own, left alone. */
  leftovers?: string[];
  /** How long the shard waited for a free lane after the run started (set by runInWorkers). */
  queuedMs?: number;
  /** Each resource the run changed or failed on, and the leftovers' lines (fleet/html/runChanges.ts). */
  changes?: ResourceChange[];
  leftoverLines?: LeftoverLine[];
}

export interface ShardListener {
  onProgress(job: ShardJob, counts: StepCounts): void;
  onError(job: ShardJob, message: string): void;
  onPolicy(job: ShardJob, message: string): void;
  onNotice(job: ShardJob, message: string): void;
  /** A drift check's findings (fleet/drift). */
  onDrift?(job: ShardJob, report: ShardDrift): void;
  /** A dns read's answer (fleet/dns). */
  onDns?(job: ShardJob, report: ShardDns): void;
  /** A rotation's outcome on each credential it targeted (fleet/rotate). */
  onRotation?(job: ShardJob, outcomes: RotationOutcome[]): void;
}

const WORKER = path.join(__dirname, "worker.js");

/**
 * Shards a worker runs before the lane replaces it. Each inline run leaves its resource graph
 * behind (~5 MB of heap per 30-tenant shard after a full GC): the DNS resolver handles that
 * @grpc/grpc-js creates for the run's connections to the engine hold the async-local store Pulumi
 * gives each run, and with it the run's resources. The process's resident memory grows faster
 * (~40 MB a shard: 210 MB after the first, 660 MB after the twelfth) because V8 collects lazily. A
 * fresh process every 8 shards keeps a lane under ~500 MB, for one start (~0.8 core-seconds) per 8.
 */
export const SHARDS_PER_WORKER = 8;

export class WorkerLane {
  private child: ChildProcess | undefined;
  private ran = 0;

  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly script: string = WORKER,
    private readonly shardsPerWorker: number = SHARDS_PER_WORKER,
  ) {}

  /** The current worker's process id (undefined before the first shard or after a crash). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  run(job: ShardJob, listener: ShardListener): Promise<ShardResult> {
    if (this.child && this.ran >= this.shardsPerWorker) this.close();
    const child = (this.child ??= this.start());
    this.ran++;
    const started = Date.now();
    return new Promise((resolve) => {
      let counts = zeroCounts();
      const base = () => ({
        shard: job.shard,
        stackName: job.stackName,
        durationMs: Date.now() - started,
        logFile: job.logFile,
      });
      const finish = (result: ShardResult) => {
        child.off("message", onMessage);
        child.off("exit", onExit);
        child.off("error", onError);
        resolve(result);
      };
      const onMessage = (m: WorkerMessage) => {
        if (m.type === "progress") {
          counts = m.counts;
          listener.onProgress(job, counts);
        } else if (m.type === "error") listener.onError(job, m.message);
        else if (m.type === "policy") listener.onPolicy(job, m.message);
        else if (m.type === "notice") listener.onNotice(job, m.message);
        else if (m.type === "drift") listener.onDrift?.(job, m.report);
        else if (m.type === "dns") listener.onDns?.(job, m.report);
        else if (m.type === "rotation") listener.onRotation?.(job, m.outcomes);
        else {
          const { changes, leftoverLines } = m;
          finish({
            ...base(),
            ok: m.ok,
            counts: m.counts,
            error: m.error,
            leftovers: m.leftovers,
            changes,
            leftoverLines,
          });
        }
      };
      // The lane forgets the dead worker itself (start()).
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        finish({ ...base(), ok: false, counts, error: `worker exited (${signal ?? `code ${code}`}) without a result` });
      };
      const onError = (e: Error) => {
        this.forget(child);
        child.kill();
        finish({ ...base(), ok: false, counts, error: `worker: ${e.message}` });
      };
      child.on("message", onMessage);
      child.on("exit", onExit);
      child.on("error", onError);
      child.send(job);
    });
  }

  /** Lets the worker go: it exits when its IPC channel closes. */
  close(): void {
    const child = this.child;
    this.child = undefined;
    if (child?.connected) child.disconnect();
  }

  private start(): ChildProcess {
    this.ran = 0;
    const child = fork(this.script, [], { stdio: ["ignore", "inherit", "inherit", "ipc"], env: this.env });
    // A worker that dies between two shards is replaced by the next shard's run, not blamed for it.
    child.once("exit", () => this.forget(child));
    return child;
  }

  private forget(child: ChildProcess): void {
    if (this.child === child) this.child = undefined;
  }
}
