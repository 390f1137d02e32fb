// Processes of a test stack, as the operating system sees them: waiting (bounded) for a condition or
// for a CLI run to end, and killing the stack's dynamic-provider process like an OOM kill.
import { type ChildProcess, type SpawnOptions, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Face } from "../sdk/nodejs/internal/face";
import type { TestStack } from "./stack";

/** Checks `pred` every 100 ms until it holds (true) or `timeoutMs` has passed (false). */
async function poll(pred: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await pred()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls (bounded) until `pred` holds. */
export async function until(what: string, pred: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  if (!(await poll(pred, timeoutMs))) throw new Error(`timed out waiting for ${what}`);
}

/** The exit code of a spawned process (bounded: a hung CLI fails the test instead of the suite). */
export function exitOf(child: ChildProcess, timeoutMs = 180_000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // With all it started: a hung CLI's plugins and language hosts would outlive the test.
      if (child.pid === undefined || !killGroup(child.pid)) child.kill("SIGKILL");
      reject(new Error(`pulumi (pid ${child.pid}) did not exit within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** SIGKILLs the process group `pgid` leads (a child spawned with `detached: true`); false when there is none. */
export function killGroup(pgid: number): boolean {
  try {
    process.kill(-pgid, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}

/** Process groups of bounded commands still running: killed if this process exits first. */
const liveGroups = new Set<number>();
let exitHook = false;

/** Kills every bounded command's group still running (e.g. after a test that jest timed out). */
export function killLiveGroups(): void {
  for (const pgid of liveGroups) killGroup(pgid);
}

/**
 * Kills the process group `pgid` if this process exits before it ends (a server a crashed test or
 * benchmark did not close would outlive it, holding its ports); the returned function forgets it.
 */
export function endWithThisProcess(pgid: number): () => void {
  if (!exitHook) {
    exitHook = true;
    process.on("exit", killLiveGroups);
  }
  liveGroups.add(pgid);
  return () => liveGroups.delete(pgid);
}

export interface BoundedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command in its own process group (its pid is the group's id), bounded: past `timeoutMs`
 * the whole group — the command and everything it started — is killed and `done` rejects, naming
 * `what`, what the group held and the tail of its output. `endGroupOnExit` also ends what the
 * command left in its group when it exits. `onStdout` sees its output as it comes.
 */
export function spawnBounded(
  file: string,
  args: string[],
  opts: Omit<SpawnOptions, "detached" | "stdio"> & {
    what: string;
    timeoutMs: number;
    endGroupOnExit?: boolean;
    onStdout?: (text: string) => void;
  },
): { child: ChildProcess; done: Promise<BoundedRun> } {
  const { what, timeoutMs, endGroupOnExit, onStdout, ...spawnOpts } = opts;
  const child = spawn(file, args, { ...spawnOpts, stdio: ["pipe", "pipe", "pipe"], detached: true });
  const pgid = child.pid;
  const forget = pgid === undefined ? () => undefined : endWithThisProcess(pgid);
  const tail = (text: string) => (text.length > 5000 ? `…${text.slice(-5000)}` : text);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (text: string) => {
    stdout += text;
    onStdout?.(text);
  });
  child.stderr!.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  child.stdin!.on("error", () => undefined); // EPIPE: a command that ends without reading its input
  if (endGroupOnExit) child.on("exit", () => pgid !== undefined && killGroup(pgid));
  const done = new Promise<BoundedRun>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      forget();
      finish();
    };
    const timer = setTimeout(() => {
      const members = pgid === undefined ? [] : commandLines(groupMembers(pgid));
      const killed = pgid !== undefined && killGroup(pgid);
      settle(() =>
        reject(
          new Error(
            `${what} did not end within ${timeoutMs} ms: ` +
              (killed
                ? `killed its process group ${pgid}, which held:\n${members.join("\n")}`
                : "its process group was gone") +
              `\n--- its stdout so far:\n${tail(stdout)}\n--- its stderr so far:\n${tail(stderr)}`,
          ),
        ),
      );
    }, timeoutMs);
    child.on("error", (e) => settle(() => reject(new Error(`${what} could not start: ${e.message}`, { cause: e }))));
    child.on("close", (code, signal) => settle(() => resolve({ code, signal, stdout, stderr })));
  });
  return { child, done };
}

/** Every running process, as `ps` lists it: its id, its process group, its command line. */
function processTable(): Array<{ pid: number; pgid: number; args: string }> {
  return execFileSync("ps", ["-eo", "pid=,pgid=,args="], { encoding: "utf8" })
    .split("\n")
    .flatMap((line) => {
      const [pid, pgid, ...args] = line.trim().split(/\s+/);
      return Number(pid) ? [{ pid: Number(pid), pgid: Number(pgid), args: args.join(" ") }] : [];
    });
}

/** The processes of the process group `pgid` (for a failure message: what a hung command held). */
export function groupMembers(pgid: number): number[] {
  try {
    return processTable()
      .filter((p) => p.pgid === pgid)
      .map((p) => p.pid);
  } catch {
    return [];
  }
}

/**
 * Kills the process serving this stack's txmail resources (found by its private PULUMI_HOME), like an
 * OOM kill: the dynamic-provider plugin, or with the native face the txmail plugin (whose script
 * execs node on dist/native/main.js).
 */
export function killProvider(t: TestStack): number {
  return killStackProcesses(t, isProviderOf(t.face));
}

/** Whether a process's command line is the provider of a face's txmail resources. */
export const isProviderOf =
  (face: Face) =>
  (args: string): boolean =>
    face === "native" ? /native\/main\.js( |$)/.test(args) : args.includes("dynamic-provider");

/**
 * SIGKILLs this stack's processes whose command line passes `which` — found by the stack's private
 * PULUMI_HOME in their environment, so other tests' processes are never touched. Returns how many.
 */
export function killStackProcesses(t: TestStack, which: (args: string) => boolean = () => true): number {
  return killAll(stackProcesses(t, which));
}

/** SIGKILLs these processes; returns how many were still there to kill. */
function killAll(pids: number[]): number {
  let killed = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
      killed++;
    } catch {
      // exited meanwhile
    }
  }
  return killed;
}

/** The ids of this stack's running processes whose command line passes `which` (see killStackProcesses). */
export function stackProcesses(t: TestStack, which: (args: string) => boolean = () => true): number[] {
  return processesOfHome(path.join(t.stateDir, ".pulumi-home"), which);
}

/**
 * The ids of running processes whose environment names this PULUMI_HOME (one stack's, or one
 * fleet machine's) and whose command line passes `which`.
 */
export function processesOfHome(pulumiHome: string, which: (args: string) => boolean = () => true): number[] {
  const home = `PULUMI_HOME=${pulumiHome}`;
  const pids: number[] = [];
  for (const { pid, args } of processTable()) {
    if (pid === process.pid || !which(args)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(home)) pids.push(pid);
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return pids;
}

/** Whether a process is running (a zombie, dead but not yet reaped, is not). */
export function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX] /s.test(stat);
  } catch {
    return false;
  }
}

/**
 * Waits (bounded) until none of the processes `find` lists is running; fails naming those still
 * running (and kills them, so that they do not outlive the test).
 */
export async function expectEnded(find: () => number[], timeoutMs: number): Promise<void> {
  const left = () => [...new Set(find())].filter(running);
  await poll(() => left().length === 0, timeoutMs);
  const still = left();
  if (still.length === 0) return;
  const lines = commandLines(still);
  killAll(still);
  throw new Error(
    `${still.length} process(es) still running ${timeoutMs} ms after their engine died:\n${lines.join("\n")}`,
  );
}

/** The command lines of these processes (for a failure message); gone ones are left out. */
export function commandLines(pids: number[]): string[] {
  return pids.flatMap((pid) => {
    try {
      return [`${pid}: ${fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim()}`];
    } catch {
      return [];
    }
  });
}

/** Ctrl-C on a spawned CLI: SIGINT to its process group, as a terminal sends it to the foreground job. */
export function pressCtrlC(child: ChildProcess): void {
  process.kill(-child.pid!, "SIGINT");
}
