// Runs one shard job in a worker process and collects its outcome. A worker that dies without
// reporting (killed, out of memory) is a failed shard, never a hang.
import { fork } from "node:child_process";
import * as path from "node:path";
import type { ShardJob, WorkerMessage } from "./protocol";
import { type StepCounts, zeroCounts } from "./stepCounts";

export interface ShardResult {
  shard: number;
  stackName: string;
  ok: boolean;
  counts: StepCounts;
  durationMs: number;
  error?: string;
  logFile: string;
}

export interface ShardListener {
  onProgress(job: ShardJob, counts: StepCounts): void;
  onError(job: ShardJob, message: string): void;
  onPolicy(job: ShardJob, message: string): void;
}

const WORKER = path.join(__dirname, "worker.js");

export function runShard(job: ShardJob, listener: ShardListener): Promise<ShardResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let counts = zeroCounts();
    let done: (WorkerMessage & { type: "done" }) | undefined;
    const child = fork(WORKER, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.on("message", (m: WorkerMessage) => {
      if (m.type === "progress") {
        counts = m.counts;
        listener.onProgress(job, counts);
      } else if (m.type === "error") listener.onError(job, m.message);
      else if (m.type === "policy") listener.onPolicy(job, m.message);
      else done = m;
    });
    const base = () => ({
      shard: job.shard,
      stackName: job.stackName,
      durationMs: Date.now() - started,
      logFile: job.logFile,
    });
    child.on("error", (e) => resolve({ ...base(), ok: false, counts, error: `worker: ${e.message}` }));
    child.on("exit", (code, signal) => {
      if (done) resolve({ ...base(), ok: done.ok, counts: done.counts, error: done.error });
      else
        resolve({
          ...base(),
          ok: false,
          counts,
          error: `worker exited (${signal ?? `code ${code}`}) without a result`,
        });
    });
    child.send(job);
  });
}
