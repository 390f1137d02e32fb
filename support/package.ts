// pulumi-txmail installed in a program's node_modules the way `npm install pulumi-txmail` leaves it,
// from this checkout: for the tests and benchmarks of what depends on the installed layout.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./root";

/**
 * `dir/node_modules` as `npm install pulumi-txmail` leaves it, for what depends on the layout (the
 * dynamic provider stored in state as a short `require` only from under node_modules): every
 * dependency linked (one copy of @pulumi/pulumi, shared with the checkout), and pulumi-txmail a real
 * directory holding what `npm pack` would ship (package.json and its "files"). Returns node_modules.
 */
export function installPackage(dir: string): string {
  const repoModules = path.join(REPO_ROOT, "node_modules");
  const modules = path.join(dir, "node_modules");
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(repoModules)) {
    if (entry !== "pulumi-txmail") fs.symlinkSync(path.join(repoModules, entry), path.join(modules, entry));
  }
  const pkg = path.join(modules, "pulumi-txmail");
  fs.mkdirSync(pkg);
  fs.copyFileSync(path.join(REPO_ROOT, "package.json"), path.join(pkg, "package.json"));
  // What `npm pack` ships: package.json's "files" (dist/, the native plugin's bin script, …).
  const files = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { files: string[] })
    .files;
  for (const entry of files.filter((f) => !f.startsWith("!"))) {
    if (fs.existsSync(path.join(REPO_ROOT, entry))) {
      fs.cpSync(path.join(REPO_ROOT, entry), path.join(pkg, entry), { recursive: true });
    }
  }
  // A "!path" entry is what npm leaves out of what the others name (dist/tools: the generators).
  for (const entry of files.filter((f) => f.startsWith("!") && !/[*?]/.test(f))) {
    fs.rmSync(path.join(pkg, entry.slice(1)), { recursive: true, force: true });
  }
  return modules;
}
