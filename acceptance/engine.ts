// The real Pulumi engine for the acceptance run, over the Automation API: one throwaway stack per face,
// its state in a local file backend in a temporary directory (the run destroys what it creates; the
// sweepers remove what an interrupted run left), encrypted with a passphrase drawn for the run.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { type ConfigMap, LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { engineEnv, pulumiCommand } from "../support/engineEnv";
import { REPO_ROOT, TOOLS_DIR } from "../support/root";

export interface RunStack {
  stack: Stack;
  dir: string;
  dispose(): Promise<void>;
}

/** A stack of the program in `programDir` (copied: the engine writes stack files next to it). */
export async function createStack(programDir: string, name: string, config: ConfigMap): Promise<RunStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-acceptance-"));
  const workDir = path.join(dir, "program");
  fs.cpSync(programDir, workDir, { recursive: true });
  if (fs.existsSync(path.join(workDir, "package.json"))) {
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(workDir, "node_modules"));
  }
  // The tests' engine environment (the CLI and YAML language host of .tools first on PATH), with
  // the single-executable txmail plugin users install, and a passphrase of the run's own.
  const envVars = engineEnv(dir, { PULUMI_CONFIG_PASSPHRASE: randomBytes(16).toString("hex") }, TOOLS_DIR, "binary");
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
