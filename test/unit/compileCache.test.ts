// The processes that serve resources load the provider through Node's compile cache
// (provider/compileCache.ts): checked in a fresh Node process on the built dist/, as the dynamic
// provider host and the plugin load it; jest's own module loader would not use the cache.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../support/root";

/** The compile cache directory a fresh process reports after requiring `entry` ("" when off). */
function cacheDirAfter(entry: string, env: NodeJS.ProcessEnv): string {
  const script = `require(${JSON.stringify(entry)}); process.stdout.write(require("node:module").getCompileCacheDir() ?? "")`;
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8", env });
}

describe("the provider's compile cache", () => {
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-compile-cache-"));
  afterAll(() => fs.rmSync(cache, { recursive: true, force: true }));
  const { NODE_COMPILE_CACHE: _chosen, NODE_DISABLE_COMPILE_CACHE: _off, ...env } = process.env;

  it.each([
    ["the dynamic face's runtime", path.join(REPO_ROOT, "dist", "provider", "runtime.js")],
    ["the module the plugin's entry imports first", path.join(REPO_ROOT, "dist", "provider", "compileCache.js")],
  ])("is on once %s is loaded, under the OS temp dir", (_what, entry) => {
    // Not NODE_COMPILE_CACHE: Node would turn the cache on by itself.
    expect(cacheDirAfter(entry, { ...env, TMPDIR: cache })).toContain(cache);
    expect(fs.readdirSync(cache).length).toBeGreaterThan(0); // and code was written there
  });

  it("stays off when NODE_DISABLE_COMPILE_CACHE asks", () => {
    const entry = path.join(REPO_ROOT, "dist", "provider", "runtime.js");
    expect(cacheDirAfter(entry, { ...env, TMPDIR: cache, NODE_DISABLE_COMPILE_CACHE: "1" })).toBe("");
  });
});
