// CHANGELOG.md follows Keep a Changelog 1.1.0 (https://keepachangelog.com/en/1.1.0/): an "Unreleased"
// section first, then one section per version, newest first, each `## [X.Y.Z] - YYYY-MM-DD`; change
// types as `###` headings (Added, Changed, Deprecated, Removed, Fixed, Security); a link reference at
// the bottom for every section. package.json's version has its section, or Unreleased says what it
// is about to be.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../../support/root";

const CHANGE_TYPES = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"];
const VERSION_HEADING = /^## \[(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\] - (\d{4}-\d{2}-\d{2})$/;

/** Everything that does not follow the format, one line each. */
function changelogProblems(text: string, packageVersion: string): string[] {
  const problems: string[] = [];
  const lines = text.split("\n");
  if (lines[0] !== "# Changelog") problems.push("the first line is not `# Changelog`");
  if (!text.includes("https://keepachangelog.com/en/1.1.0/"))
    problems.push("the header does not cite Keep a Changelog 1.1.0");
  const sections = lines.filter((l) => l.startsWith("## "));
  if (sections[0] !== "## [Unreleased]") problems.push("the first section is not `## [Unreleased]`");
  const versions: string[] = [];
  for (const heading of sections.slice(1)) {
    const m = VERSION_HEADING.exec(heading);
    if (m) versions.push(m[1]!);
    else problems.push(`not \`## [X.Y.Z] - YYYY-MM-DD\`: ${heading}`);
  }
  const newestFirst = [...versions].sort((a, b) => compareVersions(b, a));
  if (versions.join() !== newestFirst.join()) problems.push(`versions not newest first: ${versions.join(", ")}`);
  for (const heading of lines.filter((l) => l.startsWith("### "))) {
    if (!CHANGE_TYPES.includes(heading.slice(4))) problems.push(`not a change type: ${heading}`);
  }
  for (const name of ["unreleased", ...versions]) {
    if (!new RegExp(`^\\[${name.replace(/\./g, "\\.")}\\]: https://\\S+$`, "im").test(text)) {
      problems.push(`no link reference for [${name}]`);
    }
  }
  const unreleased = text.split(/^## /m).find((s) => s.startsWith("[Unreleased]\n")) ?? "";
  if (!versions.includes(packageVersion) && !/^- /m.test(unreleased)) {
    problems.push(`package.json's version ${packageVersion} has no section and Unreleased lists nothing`);
  }
  return problems;
}

function compareVersions(a: string, b: string): number {
  const [pa, pb] = [a, b].map((v) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p)));
  for (let i = 0; i < Math.max(pa!.length, pb!.length); i++) {
    const [x, y] = [pa![i], pb![i]];
    if (x === y) continue;
    if (x === undefined) return 1; // a release sorts after its pre-releases
    if (y === undefined) return -1;
    return typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
  }
  return 0;
}

const version = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
  .version;

test("CHANGELOG.md follows Keep a Changelog and covers package.json's version", () => {
  expect(changelogProblems(fs.readFileSync(path.join(REPO_ROOT, "CHANGELOG.md"), "utf8"), version)).toEqual([]);
});

test("the check finds each kind of problem", () => {
  const bad = [
    "# Changes",
    "",
    "## Unreleased",
    "",
    "### Improved",
    "",
    "## [0.1.0] - 2026-11-22",
    "",
    "## [0.2.0] - 2026-12-01",
    "",
    "## 0.0.1",
    "",
    "[0.1.0]: https://example.com/v0.1.0",
  ].join("\n");
  expect(changelogProblems(bad, "0.3.0")).toEqual([
    "the first line is not `# Changelog`",
    "the header does not cite Keep a Changelog 1.1.0",
    "the first section is not `## [Unreleased]`",
    "not `## [X.Y.Z] - YYYY-MM-DD`: ## 0.0.1",
    "versions not newest first: 0.1.0, 0.2.0",
    "not a change type: ### Improved",
    "no link reference for [unreleased]",
    "no link reference for [0.2.0]",
    "package.json's version 0.3.0 has no section and Unreleased lists nothing",
  ]);
  expect(compareVersions("1.0.0", "1.0.0-rc.1")).toBeGreaterThan(0);
  expect(compareVersions("0.10.0", "0.9.1")).toBeGreaterThan(0);
});
