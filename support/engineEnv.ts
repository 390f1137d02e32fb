// The environment the Pulumi engine runs with for this checkout's stacks (tests, benchmarks, the
// acceptance run): offline, local, deterministic — a file:// backend and a Pulumi home in the
// stack's own directory, the passphrase secrets provider, no update checks, no plugin downloads —
// with the checkout's txmail plugin installed in that home (plugin.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import { PulumiCommand } from "@pulumi/pulumi/automation";
import { installCheckoutPlugin, type PluginBuild } from "./plugin";
import { TOOLS_DIR } from "./root";

/** The passphrase of tests' and benchmarks' throwaway stacks (the acceptance run draws its own). */
export const PASSPHRASE = "txmail-test-passphrase";

/** The CLI installed by scripts/setup.sh (or in another tools root); throws with the fix when it is missing. */
export async function pulumiCommand(toolsRoot: string = TOOLS_DIR): Promise<PulumiCommand> {
  const bin = path.join(toolsRoot, "bin", "pulumi");
  if (!fs.existsSync(bin)) {
    throw new Error(`no Pulumi CLI at ${bin}: run 'bash scripts/setup.sh' first`);
  }
  return PulumiCommand.get({ root: toolsRoot });
}

/**
 * The engine's environment for a stack whose state lives in `stateDir`, with the checkout's txmail
 * plugin (`plugin`) installed in its Pulumi home (plugin.ts) unless one is there. `toolsRoot`'s bin/
 * leads PATH; with `onlyTools`, it is the whole PATH. `extra` adds to or overrides any of it.
 */
export function engineEnv(
  stateDir: string,
  extra: Record<string, string> = {},
  toolsRoot: string = TOOLS_DIR,
  plugin: PluginBuild = "script",
  onlyTools = false,
): Record<string, string> {
  const env = {
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_HOME: path.join(stateDir, ".pulumi-home"),
    PATH: [
      path.join(toolsRoot, "bin"),
      ...(onlyTools ? [] : (process.env.PATH ?? "").split(":").filter((d) => d !== path.join(TOOLS_DIR, "bin"))),
    ].join(":"),
    ...extra,
  };
  installCheckoutPlugin(env.PULUMI_HOME, plugin);
  return env;
}
