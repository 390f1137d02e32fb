// What `npm pack` ships, from package.json's "files" over the built dist/ (scripts/setup.sh builds
// it): the library and its CLIs, never the generators that only the checkout runs. The release
// rehearsal (test/e2e/release) checks the real tarball; this is the quick check of the same rule.
import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "../../../support/root";

it("ships the SDK and leaves the field-list generator (dist/tools) out", () => {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
  expect(files).toContain("dist/sdk/nodejs/index.js");
  expect(files).toContain("dist/fleet/cli.js");
  expect(files.filter((f) => f.startsWith("dist/tools/"))).toEqual([]);
});
