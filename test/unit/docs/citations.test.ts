// Code, tests and docs cite the contract in the repository (docs/contract) and nothing outside it,
// and every citation of a docs/ page lands on a page and heading that exist. See
// docs/guide/development.md#contributing.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../../support/root";
import {
  anchors,
  type Citation,
  docsCitations,
  markdownLinks,
  read,
  ruleCitations,
  slug,
  textFiles,
} from "./citations";

const THIS_TEST = path.normalize("test/unit/docs/citations.test.ts");

/**
 * Ways the tree used to cite documents that live outside the repository: the service description
 * (its file name, "the seed") and its companion (`api-paths.md`), by file or by section name.
 */
const OUTSIDE_REFERENCES: Array<[string, RegExp]> = [
  ["the companion file", /api-paths/i],
  ["the description's file name", /000_dc3c/i],
  ["the shared spec folder", /shared\/spec/i],
  ['"the seed"', /\bthe seed\b|\bseed['’]s\b|(?<!\w)\(seed[,)]/i],
  [
    'a section of "the seed"',
    /\bseed\b[\s,(]+["“]|\bseed\s+(Authentication|IP allow|Errors|Limits|Scopes|Pagination|Idempotency|States)/i,
  ],
  ['a section of "the spec"', /\bspec\b[\s,(]+["“]/i],
  ["a numbered section of the description", /\b(Authentication|IP allow lists|Errors|Versioning) \d/i],
  [
    "a section heading of the description",
    /["“](States and transitions|Scope each endpoint requires|Retry safety|More rules from the public documentation|Sub-account usage response|Message creation response|Conversation message request|Remove account member|Resources and their fields|List envelope and pagination|Idempotency rules|IP allow lists)["”]/i,
  ],
];

/** Pages other branches of issue 30 add; links to them are accepted until they exist, then checked. */
const PENDING_PAGES = new Set(
  ["docs/guide/fleets.md", "docs/guide/plugin.md", "docs/guide/acceptance.md", "docs/development/adding-a-kind.md"].map(
    (p) => path.normalize(p),
  ),
);

describe("no reference to a document outside the repository", () => {
  const files = textFiles().filter((f) => f !== THIS_TEST);

  it("scans the code, the tests and the docs", () => {
    for (const f of ["emulator/idempotency.ts", "provider/api/scopes.ts", "README.md", "docs/contract/idempotency.md"])
      expect(files).toContain(path.normalize(f));
  });

  it("none in any file (cite docs/contract/… instead)", () => {
    const found: string[] = [];
    for (const file of files) {
      read(file)
        .split("\n")
        .forEach((line, i) => {
          for (const [what, re] of OUTSIDE_REFERENCES)
            if (re.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it.each([
    ['// Scope checks (api-paths.md "Scope each endpoint requires")'],
    ['// Idempotency (seed, "Idempotency rules" 1–9)'],
    ["// The seed's two restrictions."],
    ['test("Authentication 6: a sub-account key authenticates as the sub account")'],
    ["// Members (seed): nobody can remove the owner"],
    ['// the narrowest form (spec "Scopes")'],
    ["// see ../shared/spec/000_dc3c108593049dfc.txt"],
  ])("recognises %s", (line) => {
    expect(OUTSIDE_REFERENCES.some(([, re]) => re.test(line))).toBe(true);
  });

  it.each([
    ["function lcg(seed: number)"],
    ["const SEED = 42;"],
    ["let a = seed >>> 0;"],
    ["const rnd = prng(SEED);"],
    ['import { x } from "./spec";'],
    ["// idempotency rule 6: see docs"],
  ])("leaves alone %s", (line) => {
    expect(OUTSIDE_REFERENCES.some(([, re]) => re.test(line))).toBe(false);
  });
});

describe("every citation of docs/ resolves", () => {
  const files = textFiles().filter((f) => f !== THIS_TEST);
  const citations: Citation[] = files.flatMap((file) => {
    const text = read(file);
    const links = file.endsWith(".md") ? markdownLinks(file, text) : [];
    return [...docsCitations(file, text), ...ruleCitations(file, text), ...links];
  });

  function unresolved(cs: Citation[]): string[] {
    const pageAnchors = new Map<string, Set<string> | null>();
    const anchorsOf = (page: string) => {
      if (!pageAnchors.has(page)) {
        const full = path.join(REPO_ROOT, page);
        pageAnchors.set(
          page,
          fs.existsSync(full) && fs.statSync(full).isFile() ? anchors(fs.readFileSync(full, "utf8")) : null,
        );
      }
      return pageAnchors.get(page)!;
    };
    const bad: string[] = [];
    for (const c of cs) {
      const full = path.join(REPO_ROOT, c.page);
      if (fs.existsSync(full) && fs.statSync(full).isDirectory()) continue;
      if (!c.page.endsWith(".md")) {
        if (!fs.existsSync(full)) bad.push(`${c.from}: ${c.page} does not exist`);
        continue;
      }
      const found = anchorsOf(c.page);
      if (found === null) {
        if (!PENDING_PAGES.has(path.normalize(c.page))) bad.push(`${c.from}: ${c.page} does not exist`);
      } else if (c.anchor !== undefined && c.anchor !== "" && !found.has(c.anchor)) {
        bad.push(`${c.from}: ${c.page} has no heading #${c.anchor}`);
      }
    }
    return bad;
  }

  it("the code and tests cite the contract (docs/contract/….md#…)", () => {
    const contract = citations.filter(
      (c) => c.page.startsWith(path.normalize("docs/contract/")) && !c.from.endsWith(".md"),
    );
    expect(contract.length).toBeGreaterThan(50);
  });

  it("every cited page exists and has the cited heading", () => {
    expect(unresolved(citations)).toEqual([]);
  });

  it("a missing heading, a missing page and a rule that is not there are reported", () => {
    expect(
      unresolved([
        { from: "x.ts", page: "docs/contract/idempotency.md", anchor: "rule-6" },
        { from: "x.ts", page: "docs/contract/idempotency.md", anchor: "rule-10" },
        { from: "x.ts", page: "docs/contract/nowhere.md" },
        ...ruleCitations("y.ts", "// authentication rule 8"),
      ]),
    ).toEqual([
      "x.ts: docs/contract/idempotency.md has no heading #rule-10",
      "x.ts: docs/contract/nowhere.md does not exist",
      "y.ts: docs/contract/authentication.md has no heading #rule-8",
    ]);
  });

  it("anchors are GitHub's", () => {
    expect(slug("A 5xx after the service committed")).toBe("a-5xx-after-the-service-committed");
    expect(slug("Importing existing objects (`pulumi import`)")).toBe("importing-existing-objects-pulumi-import");
    expect([...anchors("# T\n## Rule 1\n```\n## not a heading\n```\n## Rule 1\n")]).toEqual([
      "t",
      "rule-1",
      "rule-1-1",
    ]);
  });
});
