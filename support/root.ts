// Where the checkout and its tools are: the one root every test, benchmark, generator and the
// acceptance run resolve paths from.
import * as fs from "node:fs";
import * as path from "node:path";

/** The checkout's root, found by walking up: from the sources, from dist/ (the acceptance run, the generators) or bench/out. */
export const REPO_ROOT = findRepoRoot(__dirname);
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "Pulumi.yaml")) && fs.existsSync(path.join(dir, "scripts", "setup.sh")))
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-txmail checkout above ${from}`);
  }
}
export const TOOLS_DIR = path.join(REPO_ROOT, ".tools");
