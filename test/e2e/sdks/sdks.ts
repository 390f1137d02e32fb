// Shared by the tests of the Go, Python and Java SDKs generated from native/schema.json (sdk/go, sdk/python:
// `npm run gen:sdks`, scripts/gen-sdks.sh): paths, the Python venv, and running the tools.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, TOOLS_DIR } from "../harness";

export { REPO_ROOT };

/** The generated SDK directories, relative to the repository (or to a generator's output dir). */
export const SDK_DIRS = ["sdk/go", "sdk/python", "sdk/java"] as const;

/** The command that regenerates the committed SDKs. */
export const REGENERATE = "npm run gen:sdks";

/**
 * The Python of the venv `scripts/setup.sh --with sdkgen` (or `--with python`) builds from
 * tools/python/requirements.txt (pulumi, build, mypy); TXMAIL_PYTHON overrides it.
 */
export const PYTHON = process.env.TXMAIL_PYTHON ?? path.join(TOOLS_DIR, "python", "bin", "python");

/** Build and tool leftovers that are not part of a generated SDK (ignored by sdk/python/.gitignore; Maven's target/ by .gitignore). */
const LEFTOVER = /^(__pycache__|\.mypy_cache|build|dist|target|.*\.egg-info)$/;

/** The files under `dir`, relative to it (slash-separated, sorted), without build leftovers. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      if (LEFTOVER.test(entry.name)) continue;
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(name);
      else out.push(name);
    }
  };
  walk("");
  return out.sort();
}

/** A tree of files: its root, and which of its files count (relative to the root, slash-separated). */
export interface FileTree {
  root: string;
  files: string[];
}

/**
 * The first file (by name) in which a freshly generated tree and its committed copy differ, said as
 * `show(name)` and how: missing from the committed tree, `leftOver` (committed but not generated), or
 * `differs`; undefined when they are the same files with the same bytes.
 */
export function firstDifference(
  generated: FileTree,
  committed: FileTree,
  show: (name: string) => string,
  words: { leftOver: string; differs: string },
): string | undefined {
  for (const name of [...new Set([...generated.files, ...committed.files])].sort()) {
    const file = show(name);
    if (!committed.files.includes(name)) return `${file} is missing`;
    if (!generated.files.includes(name)) return `${file} ${words.leftOver}`;
    const a = fs.readFileSync(path.join(generated.root, name));
    const b = fs.readFileSync(path.join(committed.root, name));
    if (!a.equals(b)) return `${file} ${words.differs}`;
  }
  return undefined;
}

/** Copies `from` to `to` without build leftovers. */
export function copyClean(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, filter: (src) => !LEFTOVER.test(path.basename(src)) });
}

/** Runs a program to completion; throws with its output when it fails. Returns its stdout. */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): string {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    encoding: "utf8",
    timeout: options.timeoutMs ?? 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new Error(`${command} ${args.join(" ")}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} (in ${options.cwd ?? REPO_ROOT}) exited with ${result.status ?? result.signal}:\n` +
        `${result.stdout}\n${result.stderr}`.trim(),
    );
  }
  return result.stdout;
}

/**
 * mypy with the project's configuration (tools/python/mypy.ini: what it switches off in Pulumi's
 * generated code, and why) and a cache of its own in `cacheDir`.
 */
export function mypy(
  cacheDir: string,
  targets: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): string {
  const config = path.join(REPO_ROOT, "tools", "python", "mypy.ini");
  return run(
    PYTHON,
    ["-m", "mypy", "--config-file", config, "--cache-dir", path.join(cacheDir, "mypy-cache"), ...targets],
    {
      ...options,
      timeoutMs: 300_000,
    },
  );
}

/**
 * Builds a wheel of the committed Python SDK (from a clean copy in `workDir`/src, so sdk/python gets no
 * build/ or *.egg-info) with the venv's pinned `build` and setuptools, offline. Returns the wheel's path.
 */
export function buildPythonWheel(workDir: string): string {
  const src = path.join(workDir, "src");
  const dist = path.join(workDir, "dist");
  copyClean(path.join(REPO_ROOT, "sdk", "python"), src);
  // --no-isolation: the build backend comes pinned from the venv, not downloaded.
  run(PYTHON, ["-m", "build", "--wheel", "--no-isolation", "--outdir", dist, src], { timeoutMs: 180_000 });
  const wheels = fs.readdirSync(dist).filter((f) => f.endsWith(".whl"));
  if (wheels.length !== 1) throw new Error(`expected one wheel in ${dist}, found ${wheels.join(", ") || "none"}`);
  return path.join(dist, wheels[0]!);
}

/**
 * The Python SDK, installed for a test: builds its wheel in `workDir` and installs it (without
 * dependencies: the venv has them) into `workDir`/site, leaving the shared venv as setup made it. Run
 * PYTHON with PYTHONPATH set to the returned directory to `import pulumi_txmail`. (Importing straight
 * from sdk/python does not work: the package reads its version from its installed metadata.)
 */
export function installPythonSdk(workDir: string, wheel = buildPythonWheel(workDir)): string {
  const site = path.join(workDir, "site");
  run(PYTHON, ["-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", site, wheel]);
  return site;
}

/** The committed package schema the SDKs are generated from. */
export function packageSchema(): {
  name: string;
  version: string;
  pluginDownloadURL: string;
  resources: Record<string, unknown>;
  functions: Record<string, unknown>;
  language: { go: { importBasePath: string }; python: { packageName: string } };
} {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "native", "schema.json"), "utf8"));
}
