// What the plugin tells the engine about itself: the package schema (GetSchema) — the committed
// native/schema.json, generated from the declarations (native/schema/, `npm run gen:schema`) —
// and its version (GetPluginInfo), the package's. The single-file plugin carries both inside itself
// (provider/core/bundled.ts); run from files, they are read from the package.
import * as fs from "node:fs";
import * as path from "node:path";
import { bundled } from "../provider/core/bundled";

/** The package's root (its package.json), from source (native/) or build (dist/native/). */
function packageRoot(): string {
  const root = [path.resolve(__dirname, ".."), path.resolve(__dirname, "..", "..")].find((dir) => {
    const manifest = path.join(dir, "package.json");
    return (
      fs.existsSync(manifest) &&
      (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "pulumi-txmail"
    );
  });
  if (!root) throw new Error(`txmail: no pulumi-txmail package.json above ${__dirname}; reinstall the plugin`);
  return root;
}

export const PACKAGE_VERSION: string =
  bundled?.version ??
  (JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version: string }).version;

let cached: string | undefined = bundled?.schema;

/** The committed schema's text, read once. Missing is a broken package: said so, not papered over. */
export function servedSchema(): string {
  if (cached === undefined) {
    const file = path.join(packageRoot(), "native", "schema.json");
    if (!fs.existsSync(file)) throw new Error(`txmail: the package schema ${file} is missing; reinstall the plugin`);
    cached = fs.readFileSync(file, "utf8");
  }
  return cached;
}
