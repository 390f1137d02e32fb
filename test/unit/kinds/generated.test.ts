// The lists of kinds that scripts/gen-kinds.js writes (the contract barrel, the declarations by kind,
// the emulator's handlers and stored types, the dynamic face's provider modules) are generated from
// the files that define each kind and never edited by hand: this test generates them in memory and
// fails when a committed one differs (a kind was added, renamed or removed and `npm run gen:sdk`
// was not run).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { KINDS } from "../../../provider/api/kinds";
import { declarations } from "../../../provider/resources";
import { REPO_ROOT } from "../../../support/root";

interface GenKinds {
  generatedFiles(root: string): Map<string, string>;
  staleFiles(root: string): string[];
}
// A plain script (it runs before anything compiles), required as such.
const genKinds = require(path.join(REPO_ROOT, "scripts", "gen-kinds.js")) as GenKinds;

/** The folders gen-kinds.js reads and writes: a copy of them is a tree it can check. */
const COPIED = [
  "provider/api",
  "provider/resources",
  "emulator/handlers",
  "emulator/store/generated",
  "provider/kinds",
];

/** A copy of COPIED in a temporary folder, given to `test` and then removed. */
function withCopy(test: (root: string) => void): void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "gen-kinds-"));
  try {
    for (const dir of COPIED) fs.cpSync(path.join(REPO_ROOT, dir), path.join(root, dir), { recursive: true });
    test(root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

describe("scripts/gen-kinds.js", () => {
  it("finds every generated file up to date (else run `npm run gen:sdk`)", () => {
    expect(genKinds.staleFiles(REPO_ROOT)).toEqual([]);
  });

  it("writes a provider module for every kind, at its kind's path (existing stacks' state names it)", () => {
    const files = [...genKinds.generatedFiles(REPO_ROOT).keys()];
    expect(files.filter((f) => f.startsWith("provider/kinds/")).sort()).toEqual(
      KINDS.map((k) => `provider/kinds/${k[0]!.toLowerCase()}${k.slice(1)}.ts`).sort(),
    );
    expect(Object.keys(declarations).sort()).toEqual([...KINDS].sort());
  });

  it("reports a list that no longer matches its sources as stale", () => {
    // One declaration gone from a copy: its barrel no longer matches.
    withCopy((root) => {
      expect(genKinds.staleFiles(root)).toEqual([]);
      fs.rmSync(path.join(root, "provider/resources/suppression.ts"));
      expect(genKinds.staleFiles(root)).toEqual(["provider/resources/index.ts"]);
    });
  });

  // The store's table of types is a literal copied from the handlers' STORED (the store imports no
  // handler: they use it); a STORED changed without regenerating must show.
  it("reports the store's table as stale when a handler's STORED changes", () => {
    withCopy((root) => {
      const file = path.join(root, "emulator/handlers/routes.ts");
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('{ route: "routes" }', '{ route: "paths" }'));
      expect(genKinds.staleFiles(root)).toEqual(["emulator/store/generated/stored.ts"]);
    });
  });

  it("refuses a STORED it cannot read whole, rather than drop a type from the store", () => {
    withCopy((root) => {
      const file = path.join(root, "emulator/handlers/routes.ts");
      fs.writeFileSync(
        file,
        fs.readFileSync(file, "utf8").replace('{ route: "routes" }', '{ route: "routes", [ROUTE_ALIAS]: "routes" }'),
      );
      expect(() => genKinds.staleFiles(root)).toThrow(/emulator\/handlers\/routes\.ts: write its STORED on one line/);
    });
  });
});
