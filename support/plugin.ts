// The txmail plugin built from this checkout, as the engine finds it in tests, benchmarks, the
// acceptance run and the project's own Pulumi home (scripts/setup.sh runs this file): installed in a
// Pulumi home (plugins/resource-txmail-v<version>/), as `pulumi plugin install` leaves a
// plugin, and not on PATH, where the engine would warn "using pulumi-resource-txmail from $PATH" at
// every plugin load. Two builds: the development script (bin/pulumi-resource-txmail: the `node` on
// PATH running dist/native/main.js) and the single executable that needs no Node
// (scripts/build-plugin.sh --binary, linked by scripts/setup.sh as .tools/plugin/).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PLUGIN_DOWNLOAD_URL } from "../sdk/nodejs/internal/plugin";
import { REPO_ROOT, TOOLS_DIR } from "./root";

export type PluginBuild = "script" | "binary";

export const PLUGIN_VERSION = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }
).version;

export const PLUGIN_FILES: Record<PluginBuild, string> = {
  script: path.join(REPO_ROOT, "bin", "pulumi-resource-txmail"),
  binary: path.join(TOOLS_DIR, "plugin", "pulumi-resource-txmail"),
};

/**
 * The engine's name for the default provider of the TypeScript native face, which names the plugin's
 * version and download URL (sdk/nodejs/internal/plugin.ts): `default`, the version's parts, and the
 * URL as a QName — each `/`-separated part kept, other characters than `[A-Za-z0-9_.-]` made `_`
 * (pkg resource/deploy/providers ProviderRequest.DefaultName, sdk tokens.IntoQName).
 */
export const NATIVE_DEFAULT_PROVIDER = [
  "default",
  PLUGIN_VERSION.replace(/[.+-]/g, "_"),
  PLUGIN_DOWNLOAD_URL.split("/")
    .filter(Boolean)
    .map((part) => part.replace(/[^A-Za-z0-9_.-]/g, "_"))
    .join("/"),
].join("_");

/** The engine's warning for a plugin found on PATH (pkg workspace/plugins.go). */
export const PATH_PLUGIN_WARNING = /using pulumi-resource-txmail from \$PATH/g;

/**
 * Installs `build` into the Pulumi home `home` unless a txmail plugin is installed there already
 * (a test that installed one itself keeps it); with `replace`, any installed txmail plugin (of any
 * version) gives way to this checkout's. Throws with the fix when the build is missing.
 */
export function installCheckoutPlugin(home: string, build: PluginBuild = "script", replace = false): void {
  const plugins = path.join(home, "plugins");
  const installed = fs.existsSync(plugins)
    ? fs.readdirSync(plugins).filter((d) => d.startsWith("resource-txmail-v"))
    : [];
  if (installed.length && !replace) return;
  for (const dir of installed) fs.rmSync(path.join(plugins, dir), { recursive: true, force: true });
  const file = PLUGIN_FILES[build];
  if (!fs.existsSync(file) || (build === "script" && !fs.existsSync(path.join(REPO_ROOT, "dist", "native", "main.js"))))
    throw new Error(`no txmail plugin at ${file} (or no dist/native): run 'bash scripts/setup.sh' first`);
  const dir = path.join(plugins, `resource-txmail-v${PLUGIN_VERSION}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(file, path.join(dir, "pulumi-resource-txmail"));
}

let nodeFree: string | undefined;

/**
 * A tools root whose bin/ is a whole PATH without Node: the CLI (a file of its own: the engine
 * looks for its bundled plugins next to its resolved path) and the YAML language host. Made once.
 */
export function nodeFreeTools(): string {
  if (nodeFree) return nodeFree;
  const yamlHost = path.join(TOOLS_DIR, "bin", "pulumi-language-yaml");
  if (!fs.existsSync(yamlHost)) throw new Error(`no ${yamlHost}: run 'bash scripts/setup.sh --with yaml' first`);
  const { root, bin } = toolsRootWithCli("txmail-nonode-");
  fs.symlinkSync(fs.realpathSync(yamlHost), path.join(bin, "pulumi-language-yaml"));
  return (nodeFree = root);
}

/**
 * A new tools root (removed when the process exits) whose bin/ holds the Pulumi CLI as a file of
 * its own: the engine looks for its bundled plugins next to its resolved path, so a symbolic link
 * would not do; a hard link where the file system allows, else a copy. The caller adds the rest of
 * its PATH to `bin`.
 */
export function toolsRootWithCli(prefix: string): { root: string; bin: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.on("exit", () => fs.rmSync(root, { recursive: true, force: true }));
  const bin = path.join(root, "bin");
  fs.mkdirSync(bin);
  try {
    fs.linkSync(path.join(TOOLS_DIR, "bin", "pulumi"), path.join(bin, "pulumi"));
  } catch {
    fs.copyFileSync(path.join(TOOLS_DIR, "bin", "pulumi"), path.join(bin, "pulumi"));
    fs.chmodSync(path.join(bin, "pulumi"), 0o755);
  }
  return { root, bin };
}

/** The PATH directories in which a program named `name` is found (none: it is not resolvable). */
export function resolvable(name: string, pathVar: string): string[] {
  return pathVar.split(path.delimiter).filter((dir) => dir && fs.existsSync(path.join(dir, name)));
}

// `node dist/support/plugin.js <pulumi-home> [script|binary]`: scripts/setup.sh installs the
// development build in the project's Pulumi home (.tools/pulumi-home) with this, replacing the one an
// earlier version of the checkout installed.
if (require.main === module) {
  const [home, build = "script"] = process.argv.slice(2);
  if (!home || (build !== "script" && build !== "binary")) {
    console.error("usage: node dist/support/plugin.js <pulumi-home> [script|binary]");
    process.exit(2);
  }
  installCheckoutPlugin(home, build, true);
}
