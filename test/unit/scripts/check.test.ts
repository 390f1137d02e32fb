// scripts/check.sh, the static checks of the test command: a finding fails its check, names it, and
// the closing line counts it; the tree itself passes them (the full run is in scripts/test.sh, beside
// jest; here one check on a throw-away tree proves a finding is not swallowed).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../../support/root";

const run = promisify(execFile);

it("fails the gofmt check on an unformatted Go file, naming it", async () => {
  // A copy of the script in a tree of its own whose tools/ holds one badly formatted Go file; the
  // other checks fail there too (no node_modules), which the count must show as failures, not skip.
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-check-"));
  try {
    fs.mkdirSync(path.join(tree, "scripts"));
    fs.mkdirSync(path.join(tree, "tools", "bad"), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, "scripts", "check.sh"), path.join(tree, "scripts", "check.sh"));
    fs.writeFileSync(path.join(tree, "tools", "bad", "main.go"), "package main\nfunc main(){\n}\n");
    const result = await run("bash", [path.join(tree, "scripts", "check.sh")], { env: process.env }).then(
      (r) => ({ out: r.stdout, code: 0 }),
      (e: { stdout: string; code: number }) => ({ out: e.stdout, code: e.code }),
    );
    expect(result.code).not.toBe(0);
    expect(result.out).toMatch(/\[check\] gofmt: FAILED \(\d+ s\)\ntools\/bad\/main\.go/);
    expect(result.out).toMatch(/^checks: \d+ passed, [1-9]\d* failed$/m);
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
}, 120_000);
