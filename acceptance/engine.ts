// The real Pulumi engine for the acceptance run, over the Automation API: one throwaway stack per face,
// its state in a local file backend in a temporary directory (the run destroys what it creates; the
// sweepers remove what an interrupted run left), encrypted with a passphrase drawn for the run.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { type ConfigMap, LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";

/** The checkout: acceptance/ compiled sits under dist/, the sources under the checkout. */
export const REPO_ROOT = (() => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "scripts", "acceptance.sh"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-txmail checkout above ${__dirname}`);
  }
})();
const TOOLS_BIN = path.join(REPO_ROOT, ".tools", "bin");

export interface RunStack {
  stack: Stack;
  dir: string;
  dispose(): Promise<void>;
}

/** The CLI scripts/setup.sh installs (.tools/bin), else `pulumi` on PATH. */
async function pulumiCommand(): Promise<PulumiCommand> {
  return fs.existsSync(path.join(TOOLS_BIN, "pulumi"))
    ? PulumiCommand.get({ root: path.dirname(TOOLS_BIN) })
    : PulumiCommand.get();
}

/**
 * The checkout's plugin, installed in the stack's Pulumi home as `pulumi plugin install` leaves one:
 * the single executable scripts/setup.sh builds (.tools/plugin), the build users install — not on
 * PATH, where the engine warns at every plugin load.
 */
function installPlugin(home: string): void {
  const file = path.join(REPO_ROOT, ".tools", "plugin", "pulumi-resource-txmail");
  if (!fs.existsSync(file)) throw new Error(`no txmail plugin at ${file}: run 'bash scripts/setup.sh' first`);
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  const dir = path.join(home, "plugins", `resource-txmail-v${version}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(file, path.join(dir, "pulumi-resource-txmail"));
}

/** A stack of the program in `programDir` (copied: the engine writes stack files next to it). */
export async function createStack(programDir: string, name: string, config: ConfigMap): Promise<RunStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-acceptance-"));
  const workDir = path.join(dir, "program");
  fs.cpSync(programDir, workDir, { recursive: true });
  if (fs.existsSync(path.join(workDir, "package.json"))) {
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(workDir, "node_modules"));
  }
  const envVars: Record<string, string> = {
    PULUMI_BACKEND_URL: `file://${dir}`,
    PULUMI_CONFIG_PASSPHRASE: randomBytes(16).toString("hex"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_HOME: path.join(dir, ".pulumi-home"),
    // The YAML language host, as setup installs it; the txmail plugin is in PULUMI_HOME (below).
    PATH: [TOOLS_BIN, process.env.PATH ?? ""].join(":"),
  };
  installPlugin(envVars.PULUMI_HOME);
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: name, workDir },
    { pulumiCommand: await pulumiCommand(), envVars, secretsProvider: "passphrase", pulumiHome: envVars.PULUMI_HOME },
  );
  await stack.setAllConfig(config);
  return {
    stack,
    dir,
    async dispose() {
      try {
        await stack.workspace.removeStack(name, { force: true });
      } catch {
        // the sweep removes what a failed destroy left at the service
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
