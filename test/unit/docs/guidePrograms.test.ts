// The guides' complete programs (docs/guide/programs/) are real: each type-checks against the
// packages it imports — the real DNS provider's package from npm (@pulumi/cloudflare) and this
// package as users import it (`pulumi-txmail`, the built dist/) — and each guide shows its program
// verbatim, so the page cannot drift from what was checked.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../../support/root";

const PROGRAMS = path.join(REPO_ROOT, "docs", "guide", "programs");

test("the guides' programs type-check against the packages they import (tsc, strict)", () => {
  const tsc = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", path.join(PROGRAMS, "tsconfig.json")],
    { encoding: "utf8" },
  );
  expect({ code: tsc.status, output: `${tsc.stdout}${tsc.stderr}` }).toEqual({ code: 0, output: "" });
});

test.each(fs.readdirSync(PROGRAMS).filter((f) => f.endsWith(".ts")))(
  "docs/guide/%s shows its program verbatim",
  (file) => {
    const page = fs.readFileSync(path.join(REPO_ROOT, "docs", "guide", file.replace(/\.ts$/, ".md")), "utf8");
    const program = fs.readFileSync(path.join(PROGRAMS, file), "utf8");
    expect(page).toContain("```ts\n" + program + "```");
  },
);
