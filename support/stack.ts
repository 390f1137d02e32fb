// Real-engine harness: throwaway stacks over the Automation API (LocalWorkspace), with the offline
// settings every test uses — a file:// backend in a temp dir, the passphrase secrets provider, no
// update checks, no plugin downloads. It refuses to run without the project's Pulumi CLI so that a
// missing engine fails the suite instead of skipping it.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import {
  ConfigMap,
  Stack,
  LocalWorkspace,
  UpResult,
  PreviewResult,
  RefreshResult,
  DestroyResult,
} from "@pulumi/pulumi/automation";
import type { Face } from "../sdk/nodejs/internal/face";
import { engineEnv, pulumiCommand } from "./engineEnv";
import { installPackage } from "./package";
import { nodeFreeTools, resolvable, type PluginBuild } from "./plugin";
import { REPO_ROOT } from "./root";

const execFileAsync = promisify(execFile);

export interface StackOptions {
  /** Directory holding Pulumi.yaml and the program (copied to a temp dir before use). */
  programDir: string;
  /** Stack config; `secret: true` values are encrypted with the passphrase provider. */
  config?: ConfigMap;
  /** Extra environment for the engine, the program and the dynamic providers. */
  env?: Record<string, string>;
  /** Prefix for the stack name (helps when reading logs). */
  name?: string;
  /**
   * The exact stack name, instead of `<name>-<random>`: two stacks in separate state directories can
   * then share every name, as two engineers' local `dev` stacks do.
   */
  stackName?: string;
  /**
   * Run every operation with the engine's verbose logging captured in `log()`: `true` is -v=9 with
   * --debug; a level and debug flag can be given.
   */
  verbose?: boolean | { level: number; debug: boolean };
  /**
   * How the program gets pulumi-txmail: `linked` (default) links the checkout, as a developer would;
   * `installed` gives it a copy inside node_modules, as `npm install pulumi-txmail` would — the layout
   * in which Pulumi serializes each provider as a `require(...)` (provider/kinds/lazyProvider.ts).
   */
  packageLayout?: "linked" | "installed";
  /**
   * With `installed`: more local packages (directories holding a package.json) copied into the
   * program's node_modules under their package names, as `npm install <dir>` would place them.
   */
  extraPackages?: string[];
  /**
   * Which face serves the SDK classes: `dynamic` (default) or `native` — `TXMAIL_FACE=native` for
   * the program, served by the checkout's txmail plugin, which engineEnv installs in the stack's
   * Pulumi home (plugin.ts). A suite parameterised over FACES runs unchanged on both.
   */
  face?: Face;
  /**
   * A tools root other than .tools (its bin/ holds `pulumi` and what the engine may find on PATH,
   * which replaces .tools/bin there): e.g. one without the txmail plugin, to run an installed one.
   */
  toolsRoot?: string;
  /**
   * Run with no Node anywhere: the engine's PATH (which the program inherits) is only the CLI and
   * the YAML language host (plugin.ts nodeFreeTools), and the txmail plugin is its single
   * executable. The default for YAML programs — what a YAML user without Node has.
   */
  withoutNode?: boolean;
  /** Which build of the checkout's txmail plugin the engine runs (plugin.ts); withoutNode: the binary. */
  plugin?: PluginBuild;
}

/** The environment a face needs (the native plugin is installed by engineEnv). */
export function faceEnv(face: Face = "dynamic"): Record<string, string> {
  return face === "dynamic" ? {} : { TXMAIL_FACE: "native" };
}

export interface TestStack {
  stack: Stack;
  stateDir: string;
  /** The face its txmail resources are registered through (StackOptions.face). */
  face: Face;
  /** Everything the engine printed during this stack's operations (for secret scans): stdout, then stderr. */
  log: () => string;
  /** `diff`: the engine's output shows each change as a rich property diff, as `pulumi up --diff`. */
  /** `replace`: URNs to replace whether or not they changed (`pulumi up --replace`). */
  up(opts?: { policyPacks?: string[]; diff?: boolean; replace?: string[] }): Promise<UpResult>;
  preview(opts?: { policyPacks?: string[]; policyPackConfigs?: string[]; diff?: boolean }): Promise<PreviewResult>;
  refresh(): Promise<RefreshResult>;
  destroy(): Promise<DestroyResult>;
  /**
   * The project's CLI run directly on this stack (`pulumi <args> --stack <name>`), as a user or a CI
   * job runs it — a process the test can signal, unlike the Automation API's. Its output joins `log()`.
   */
  spawnCli(args: string[]): ChildProcess;
  /** Where the program runs (`pulumi` commands on this stack run there) and the stack's name. */
  workDir: string;
  stackName: string;
  /** The engine's environment as the next operation gets it (the workspace's, with a test's changes). */
  env(): Record<string, string>;
  /** `pulumi stack export` as text, without secrets decrypted unless asked. */
  exportText(showSecrets?: boolean): Promise<string>;
  /**
   * Removes the stack's state directory. Its objects are left where they are: every test's service is
   * an emulator the test throws away, and a test that proves a destroy calls `destroy()` itself (an
   * unasserted destroy per stack cost the suite minutes of engine runs).
   */
  dispose(): Promise<void>;
}

/**
 * A private copy of a program directory: the Automation API writes `Pulumi.<stack>.yaml` into the
 * program directory, which must not litter the repository. node_modules is linked so the program
 * resolves @pulumi/pulumi and pulumi-txmail from the checkout (pulumi-txmail is a link to it).
 */
function copyProgram(
  programDir: string,
  into: string,
  layout: "linked" | "installed",
  extraPackages: string[] = [],
): string {
  const workDir = path.join(into, "program");
  fs.cpSync(programDir, workDir, {
    recursive: true,
    filter: (src) => !/Pulumi\.[^/]+\.yaml$/.test(path.basename(src)) || path.basename(src) === "Pulumi.yaml",
  });
  // A YAML program needs no npm project: the engine runs it with the YAML language host and the
  // txmail plugin installed in its Pulumi home (see engineEnv), as for a user who never ran npm install.
  if (programRuntime(workDir) === "yaml") {
    if (layout !== "linked" || extraPackages.length) throw new Error("a YAML program takes no packages");
    return workDir;
  }
  const repoModules = path.join(REPO_ROOT, "node_modules");
  if (layout === "linked") {
    if (extraPackages.length) throw new Error("extraPackages needs packageLayout: 'installed'");
    fs.symlinkSync(repoModules, path.join(workDir, "node_modules"));
    return workDir;
  }
  const modules = installPackage(workDir);
  for (const dir of extraPackages) {
    const name = (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name: string }).name;
    fs.cpSync(dir, path.join(modules, name), { recursive: true });
  }
  return workDir;
}

/** The `runtime` a program's Pulumi.yaml names (`runtime: yaml` or `runtime: { name: yaml }`). */
function programRuntime(programDir: string): string | undefined {
  const text = fs.readFileSync(path.join(programDir, "Pulumi.yaml"), "utf8");
  return /^runtime:\s*(?:\n\s+name:\s*)?([\w-]+)/m.exec(text)?.[1];
}

export async function createTestStack(opts: StackOptions): Promise<TestStack> {
  const withoutNode = opts.withoutNode ?? programRuntime(opts.programDir) === "yaml";
  if (withoutNode && opts.toolsRoot) throw new Error("withoutNode brings its own tools root");
  const toolsRoot = withoutNode ? nodeFreeTools() : opts.toolsRoot;
  const pulumi = await pulumiCommand(toolsRoot);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-e2e-"));
  const workDir = copyProgram(opts.programDir, stateDir, opts.packageLayout ?? "linked", opts.extraPackages);
  const envVars = engineEnv(
    stateDir,
    { ...faceEnv(opts.face), ...opts.env },
    toolsRoot,
    withoutNode ? "binary" : (opts.plugin ?? "script"),
    withoutNode,
  );
  if (withoutNode && resolvable("node", envVars.PATH ?? "").length)
    throw new Error(`node is on the engine's PATH (${envVars.PATH}) of a stack meant to run without it`);
  const stackName = opts.stackName ?? `${opts.name ?? "t"}-${randomBytes(4).toString("hex")}`;
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, workDir },
    { pulumiCommand: pulumi, envVars, secretsProvider: "passphrase", pulumiHome: envVars.PULUMI_HOME },
  );
  if (opts.config) await stack.setAllConfig(opts.config);

  // stdout and stderr are kept apart: the two pipes deliver chunks at arbitrary points, so one
  // joined buffer could cut a verbose-log JSON line on stderr with a chunk of stdout (seen under
  // load), and a scan that reads log records line by line would misread it.
  let output = "";
  let errors = "";
  const onOutput = (s: string) => {
    output += s;
    if (process.env.TXMAIL_E2E_ECHO) process.stderr.write(s);
  };
  const onError = (s: string) => {
    errors += s;
    if (process.env.TXMAIL_E2E_ECHO) process.stderr.write(s);
  };
  const verbosity = opts.verbose === true ? { level: 9, debug: true } : opts.verbose || undefined;
  // With `verbose`, the engine logs at -v=9 to stderr, which joins the captured output: what a
  // user pasting a debug log into an issue would share.
  const common = () => ({
    onOutput,
    onError: opts.verbose ? onError : undefined,
    color: "never" as const,
    ...(verbosity ? { logToStdErr: true, logVerbosity: verbosity.level, debug: verbosity.debug } : {}),
  });
  return {
    stack,
    stateDir,
    face: opts.face ?? "dynamic",
    log: () => (errors ? `${output}\n${errors}` : output),
    up: (o) => stack.up({ ...common(), policyPacks: o?.policyPacks, diff: o?.diff, replace: o?.replace }),
    preview: (o) =>
      stack.preview({
        ...common(),
        policyPacks: o?.policyPacks,
        policyPackConfigs: o?.policyPackConfigs,
        diff: o?.diff,
      }),
    refresh: () => stack.refresh(common()),
    destroy: () => stack.destroy(common()),
    spawnCli(args) {
      const child = spawn(pulumi.command, [...args, "--stack", stackName, "--color", "never"], {
        cwd: workDir,
        env: { ...process.env, ...envVars },
        stdio: ["ignore", "pipe", "pipe"],
        // Its own process group, as a terminal's foreground job: Ctrl-C is a SIGINT to the group.
        detached: true,
      });
      child.stdout!.setEncoding("utf8").on("data", onOutput);
      child.stderr!.setEncoding("utf8").on("data", onError);
      return child;
    },
    workDir,
    stackName,
    env: () => ({ ...(stack.workspace as LocalWorkspace).envVars }),
    async exportText(showSecrets = false) {
      const args = ["stack", "export", "--stack", stackName];
      if (showSecrets) args.push("--show-secrets");
      const { stdout } = await execFileAsync(pulumi.command, args, {
        cwd: workDir,
        env: { ...process.env, ...envVars },
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    },
    async dispose() {
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
