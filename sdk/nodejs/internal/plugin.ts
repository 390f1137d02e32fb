// The txmail plugin a native-face resource asks the engine for: this package's own version, and
// where to download it when it is not installed — what the generated Go and Python SDKs say in their
// pulumi-plugin.json, and the package schema's `pluginDownloadURL` (native/schema/packageSchema.ts
// takes both from here). With them the engine acquires the plugin by itself, as for every Pulumi
// package, instead of running whatever `pulumi-resource-txmail` it finds first.
import * as fs from "node:fs";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { bundled } from "../../../provider/core/bundled";

/** The project's repository and home page (no public remote yet: the chosen home). */
export const REPOSITORY = "https://github.com/pulumi-txmail/pulumi-txmail";

/**
 * Where the engine downloads the plugin when a program needs it and it is not installed: the
 * repository's GitHub releases, tag v<version>, asset pulumi-resource-txmail-v<version>-<os>-<arch>.tar.gz
 * (scripts/build-plugin.sh --all; examples/ci/release.yml publishes them; docs/guide/plugin.md).
 */
export const PLUGIN_DOWNLOAD_URL = `github://api.github.com/${new URL(REPOSITORY).pathname.replace(/^\/+/, "")}`;

/**
 * This package's version: carried inside the single-file plugin (provider/core/bundled.ts), else its
 * package.json, found above this file in the sources and in dist/. Read when first asked, not when
 * the module loads: the plugin loads this module too, and has no package.json beside it.
 */
export function packageVersion(): string {
  return (version ??= bundled?.version ?? versionAbove(__dirname));
}
let version: string | undefined;
function versionAbove(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (manifest.name === "pulumi-txmail" && manifest.version) return manifest.version;
    }
    if (path.dirname(dir) === dir) throw new Error(`pulumi-txmail: no package.json of pulumi-txmail above ${from}`);
  }
}

/**
 * Options naming the plugin (`version`, `pluginDownloadURL`) under the caller's, which win — as the
 * generated SDKs merge their defaults. Note the engine names a default provider after them
 * (`default_<version>_<url>`, no alias to the old name): a stack made before they were passed, or
 * with another version, has its default provider deleted and the new one created at its next up,
 * its resources unchanged (the new provider's DiffConfig asks no replacement for the same account;
 * the CLI's display hides default providers: CHANGELOG.md, test/e2e/upgrade.test.ts). The new provider draws a new stack salt (native/provider.ts), so a
 * create interrupted before the upgrade is not recognised by its idempotency key after it.
 */
export function withPlugin<T extends pulumi.ResourceOptions>(opts: T | undefined): T {
  return { version: packageVersion(), pluginDownloadURL: PLUGIN_DOWNLOAD_URL, ...opts } as T;
}
