// The fleet's lanes: a worker process reused for a lane's shards one after another, replaced after a
// crash (which fails only the shard it was running) or every `shardsPerWorker` shards. Real child
// processes speaking the worker protocol; the engine is not involved (test/e2e/fleet covers that).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ShardJob } from "../../../fleet/protocol";
import { zeroCounts } from "../../../fleet/stepCounts";
import { type ShardListener, WorkerLane } from "../../../fleet/workerLane";

// A stand-in for fleet/worker.js: answers each job like the real worker, exits on stack "crash",
// fails stack "fail", and leaves when its channel closes.
const FAKE_WORKER = `
process.on("message", (job) => {
  if (job.stackName === "crash") process.exit(3);
  const counts = { created: 1, updated: 0, replaced: 0, deleted: 0, same: 0, failed: 0 };
  process.send({ type: "progress", counts });
  if (job.stackName === "fail") process.send({ type: "error", message: "boom" });
  process.send({ type: "done", ok: job.stackName !== "fail", counts, error: job.stackName === "fail" ? "boom" : undefined });
});
process.on("disconnect", () => process.exit(0));
`;

let dir: string;
let script: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-lane-"));
  script = path.join(dir, "worker.js");
  fs.writeFileSync(script, FAKE_WORKER);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Every lane is closed even when a test fails half-way, so no worker outlives the test file.
const lanes: WorkerLane[] = [];
const newLane = (shardsPerWorker?: number) => {
  const lane = new WorkerLane(process.env, script, shardsPerWorker);
  lanes.push(lane);
  return lane;
};
afterEach(() => lanes.splice(0).forEach((lane) => lane.close()));

const job = (stackName: string, shard = 1): ShardJob => ({
  operation: "up",
  shard,
  stackName,
  fleetId: "0123456789abcdef",
  project: "txmail-fleet",
  workDir: dir,
  entries: [],
  face: "dynamic",
  policyPacks: [],
  policyPackConfigs: [],
  debug: false,
  logFile: path.join(dir, `${stackName}.log`),
});

function recorder(): ShardListener & { errors: string[]; progress: number } {
  const r = {
    errors: [] as string[],
    progress: 0,
    onProgress: () => void r.progress++,
    onError: (_: ShardJob, m: string) => void r.errors.push(m),
    onPolicy: () => undefined,
    onNotice: () => undefined,
  };
  return r;
}

/** Waits (bounded) until the process is gone. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

test("one worker runs the lane's shards one after another", async () => {
  const lane = newLane();
  const listener = recorder();
  const first = await lane.run(job("shard-001", 1), listener);
  const pid = lane.pid;
  const second = await lane.run(job("shard-002", 2), listener);
  const third = await lane.run(job("fail", 3), listener);
  expect(pid).toBeDefined();
  expect(lane.pid).toBe(pid);
  expect([first.ok, second.ok, third.ok]).toEqual([true, true, false]);
  expect(second).toMatchObject({ shard: 2, stackName: "shard-002", counts: { ...zeroCounts(), created: 1 } });
  expect(third.error).toBe("boom");
  expect(listener.errors).toEqual(["boom"]);
  expect(listener.progress).toBe(3);
  lane.close();
  expect(await gone(pid!)).toBe(true);
});

test("a crash fails only the shard it ran; the next shard gets a fresh worker", async () => {
  const lane = newLane();
  await lane.run(job("shard-001"), recorder());
  const before = lane.pid;
  const crashed = await lane.run(job("crash", 2), recorder());
  expect(crashed).toMatchObject({ ok: false, shard: 2, error: "worker exited (code 3) without a result" });
  const after = await lane.run(job("shard-003", 3), recorder());
  expect(after.ok).toBe(true);
  expect(lane.pid).toBeDefined();
  expect(lane.pid).not.toBe(before);
  lane.close();
});

test("a worker that died between two shards is replaced, not blamed", async () => {
  const lane = newLane();
  await lane.run(job("shard-001"), recorder());
  const pid = lane.pid!;
  process.kill(pid, "SIGKILL");
  expect(await gone(pid)).toBe(true);
  await new Promise((r) => setTimeout(r, 50)); // the exit event reaches the lane
  const next = await lane.run(job("shard-002", 2), recorder());
  expect(next.ok).toBe(true);
  expect(lane.pid).not.toBe(pid);
  lane.close();
});

test("a worker is replaced after shardsPerWorker shards", async () => {
  const lane = newLane(2);
  await lane.run(job("a"), recorder());
  const pid = lane.pid!;
  await lane.run(job("b"), recorder());
  expect(lane.pid).toBe(pid);
  await lane.run(job("c"), recorder());
  expect(lane.pid).not.toBe(pid);
  expect(await gone(pid)).toBe(true);
  lane.close();
});
