// Runs the built txmail-fleet command (dist/fleet/cli.js) as a user would, against an emulator and a
// file backend in a temp dir (or the backend `env` names), and reads its summary table back. The
// command runs in its own process group, bounded: on a timeout the whole group (the command, its
// workers, their `pulumi` runs and plugins) is killed and the run fails, naming the command, so a
// hung fleet never outlives its test.
import type { ChildProcess } from "node:child_process";
import * as path from "node:path";
import { engineEnv } from "./engineEnv";
import { installCheckoutPlugin } from "./plugin";
import { spawnBounded } from "./processes";
import { REPO_ROOT } from "./root";
import type { TestService } from "./service";

export interface FleetRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Summary table rows by shard stack name, plus `total`. */
  rows: Record<string, SummaryRow>;
  /** With `cpu`: user + system CPU seconds of the command and every process it started. */
  cpuSeconds?: number;
}

export interface SummaryRow {
  result: string;
  created: number;
  updated: number;
  replaced: number;
  deleted: number;
  unchanged: number;
  failed: number;
}

const CLI = path.join(REPO_ROOT, "dist", "fleet", "cli.js");
const CPU_OF_TREE = path.join(REPO_ROOT, "support", "cpuOfTree.py");

/**
 * How long a fleet run may take by default: generous, since a fleet of real `pulumi` runs on a
 * 2-core machine is slow; a run past it is hung, not slow.
 */
export const FLEET_TIMEOUT_MS = 10 * 60_000;

/** For benchmarks, whose 1 000-tenant fleets take far longer than a test's: a bound against a hang only. */
export const BENCH_FLEET_TIMEOUT_MS = 3 * 3600_000;

export async function runFleet(
  args: string[],
  opts: {
    cwd: string;
    stateDir: string;
    svc: TestService;
    /** the command's cli.js (default: dist/) */
    cli?: string;
    /** a directory searched before the tools' bin/ (e.g. a `pulumi` wrapper that records its runs) */
    pathPrefix?: string;
    /** set last (e.g. PULUMI_BACKEND_URL, PULUMI_HOME, TMPDIR of another machine) */
    env?: Record<string, string>;
    /** the child, once started (its pid is its process group's id) */
    onStart?: (child: ChildProcess) => void;
    /** a run still going after this long is killed with its whole process group, and fails (default FLEET_TIMEOUT_MS) */
    timeoutMs?: number;
    /**
     * Measure the CPU time of the command and of every process it started (its workers, their
     * `pulumi` runs, programs, plugins), with support/cpuOfTree.py.
     */
    cpu?: boolean;
  },
): Promise<FleetRun> {
  const engine = engineEnv(opts.stateDir, {
    TXMAIL_API_KEY: opts.svc.apiKey,
    TXMAIL_ACCOUNT_ID: opts.svc.accountId,
    TXMAIL_BASE_URL: opts.svc.baseUrl,
  });
  const env = {
    ...process.env,
    ...engine,
    PATH: opts.pathPrefix ? `${opts.pathPrefix}${path.delimiter}${engine.PATH}` : engine.PATH,
    ...opts.env,
  };
  // The checkout's txmail plugin in the Pulumi home the command runs with — also one a test's fresh
  // machine brings — as on a runner that installed it: the fleet finds it there, by name and version.
  installCheckoutPlugin(opts.env?.PULUMI_HOME ?? engine.PULUMI_HOME);
  const timeoutMs = opts.timeoutMs ?? FLEET_TIMEOUT_MS;
  const cliArgs = [opts.cli ?? CLI, ...args, "--progress-seconds", "5"];
  const command = `txmail-fleet ${args.join(" ")} (${process.execPath} ${cliArgs.join(" ")}, in ${opts.cwd})`;
  const [file, argv] = opts.cpu
    ? ["python3", [CPU_OF_TREE, process.execPath, ...cliArgs]]
    : [process.execPath, cliArgs];
  const { child, done } = spawnBounded(file, argv, {
    cwd: opts.cwd,
    env,
    what: command,
    timeoutMs,
    onStdout: (text) => {
      if (process.env.TXMAIL_E2E_ECHO) process.stderr.write(text);
    },
  });
  child.stdin!.end();
  opts.onStart?.(child);
  const { code, stdout, stderr } = await done;
  if (!opts.cpu) return { code, stdout, stderr, rows: summaryRows(stdout) };
  const { rest, cpuSeconds } = childrenCpu(stderr);
  return { code, stdout, stderr: rest, rows: summaryRows(stdout), cpuSeconds };
}

/** support/cpuOfTree.py ends stderr with `cpu-seconds N`. */
function childrenCpu(stderr: string): { rest: string; cpuSeconds: number } {
  const match = /\n?cpu-seconds ([\d.]+)\n$/.exec(stderr);
  if (!match) throw new Error(`no CPU time reported (support/cpuOfTree.py): ${stderr.slice(-500)}`);
  return { rest: stderr.slice(0, match.index), cpuSeconds: Number(match[1]) };
}

export function summaryRows(stdout: string): Record<string, SummaryRow> {
  const rows: Record<string, SummaryRow> = {};
  const re = /^(shard-\d{3}|total)\s+(ok|FAILED|\d+ FAILED)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/gm;
  for (const m of stdout.matchAll(re)) {
    const [created, updated, replaced, deleted, unchanged, failed] = m.slice(3, 9).map(Number) as number[];
    rows[m[1]!] = {
      result: m[2]!,
      created: created!,
      updated: updated!,
      replaced: replaced!,
      deleted: deleted!,
      unchanged: unchanged!,
      failed: failed!,
    };
  }
  return rows;
}
