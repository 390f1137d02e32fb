// A CLI run SIGKILLed at one exact point: right after the service committed the run's n-th matching
// write. A delay-after fault holds that write's answer once the emulator has committed it; as soon
// as the fault has fired, the CLI and every process of the stack's Pulumi home (the engine starts
// each plugin in a process group of its own) are SIGKILLed, so the engine never hears the answer.
// Shared by the history tester's engine depth (test/histories/engineWorld.ts) and the rotation's
// kill tests (test/e2e/rotationZeroDowntime.test.ts). What follows a kill (`pulumi cancel` to
// release the file backend's lock, a torn checkpoint) is the caller's.
import type { ChildProcess } from "node:child_process";
import type { EmulatorControl } from "../emulator/control";
import { type BoundedRun, processesOfHome, running } from "./processes";

/** How long a held write's answer is held: past the kill, so the engine never hears it. */
const HOLD_MS = 10_000;

/** Which write to hold: the `nth` request matching `method` ("POST,PUT,PATCH", "DELETE") and `path` (a fault's glob). */
export interface WriteToKillAt {
  method: string;
  path: string;
  nth: number;
}

/** The run killed at `at` (armed before `start`, so no write of the run passes unseen); `killed` says whether it came to that. */
export async function runKilledAtWrite(
  control: EmulatorControl,
  at: WriteToKillAt,
  pulumiHome: string,
  start: () => { child: ChildProcess; done: Promise<BoundedRun> },
): Promise<{ run: BoundedRun; killed: boolean }> {
  const fault = await control.injectFault({
    method: at.method,
    path: at.path,
    kind: "delay-after",
    delayMs: HOLD_MS,
    skip: at.nth - 1,
  });
  const { child, done } = start();
  let ended = false;
  const finished = done.finally(() => (ended = true));
  let killed = false;
  // Bounded by the run's own bound: `done` settles (or rejects) by then.
  while (!ended) {
    const fired = (await control.faults()).find((f) => f.id === fault.id)?.fired ?? 0;
    if (fired > 0) {
      killed = true;
      if (child.pid !== undefined) killQuietly(-child.pid);
      for (const pid of processesOfHome(pulumiHome)) killQuietly(pid);
      break;
    }
    await Promise.race([finished, new Promise((r) => setTimeout(r, 50))]);
  }
  const run = await finished.catch((err: unknown) => {
    if (!killed) throw err;
    return { code: null, signal: "SIGKILL", stdout: "", stderr: String(err) } as BoundedRun;
  });
  await control.clearFaults();
  if (killed) await waitEnded(() => processesOfHome(pulumiHome));
  return { run, killed };
}

/** SIGKILL to a process (or, negative, a process group) that may have ended meanwhile. */
export function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone already
  }
}

/** Waits (bounded) until the processes `find` lists have ended; kills stragglers again meanwhile. */
async function waitEnded(find: () => number[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = find().filter(running);
    if (left.length === 0) return;
    if (Date.now() > deadline) throw new Error(`processes ${left.join(", ")} outlived their killed engine`);
    for (const pid of left) killQuietly(pid);
    await new Promise((r) => setTimeout(r, 100));
  }
}
