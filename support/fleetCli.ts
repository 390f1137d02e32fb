// Runs the built txmail-fleet command (dist/fleet/cli.js) as a user would, against an emulator and a
// file backend in a temp dir (or the backend `env` names), and reads its summary table back.
import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { engineEnv } from "./engineEnv";
import { installCheckoutPlugin } from "./plugin";
import { REPO_ROOT } from "./root";
import type { TestService } from "./service";

export interface FleetRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Summary table rows by shard stack name, plus `total`. */
  rows: Record<string, SummaryRow>;
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

export function runFleet(
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
    /** its own process group, so that a test can kill the command with all it started */
    detached?: boolean;
    onStart?: (child: ChildProcess) => void;
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
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [opts.cli ?? CLI, ...args, "--progress-seconds", "5"], {
      cwd: opts.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: opts.detached ?? false,
    });
    opts.onStart?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => {
      stdout += s;
      if (process.env.TXMAIL_E2E_ECHO) process.stderr.write(s);
    });
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, rows: summaryRows(stdout) }));
  });
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
