// sdk/go, sdk/python and sdk/java are generated from native/schema.json by Pulumi's own code generators
// (pulumi-java's for Java; scripts/gen-sdks.sh, run by `npm run gen:sdks`) and never edited by hand: this test generates them
// into a temporary directory and fails when a committed file differs, is missing or is extra (the
// schema changed and the SDKs were not regenerated, or a generated file was edited), naming the file
// and the command that regenerates them. The first run on a machine builds the generator (seconds
// with the CLI's Go build cache, ~5 min cold).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REGENERATE, REPO_ROOT, SDK_DIRS, filesUnder, run } from "./sdks";

/** The first file that differs between two SDK trees, with how; undefined when they are identical. */
function firstDifference(expectedRoot: string, actualRoot: string): string | undefined {
  for (const dir of SDK_DIRS) {
    const expected = filesUnder(path.join(expectedRoot, dir));
    const actual = filesUnder(path.join(actualRoot, dir));
    for (const name of [...new Set([...expected, ...actual])].sort()) {
      const file = `${dir}/${name}`;
      if (!actual.includes(name)) return `${file} is missing`;
      if (!expected.includes(name)) return `${file} is not generated (left over from an older schema?)`;
      const a = fs.readFileSync(path.join(expectedRoot, file));
      const b = fs.readFileSync(path.join(actualRoot, file));
      if (!a.equals(b)) return `${file} differs from what native/schema.json generates`;
    }
  }
  return undefined;
}

describe("the Go, Python and Java SDKs (sdk/go, sdk/python, sdk/java)", () => {
  let tmp = "";
  let generated = "";

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-sdks-"));
    generated = path.join(tmp, "a");
    run("bash", [path.join(REPO_ROOT, "scripts", "gen-sdks.sh"), generated]);
  }, 600_000);

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("are what native/schema.json generates (not stale, not hand-edited)", () => {
    const difference = firstDifference(generated, REPO_ROOT);
    if (difference) throw new Error(`${difference}: the committed SDKs are stale. Run \`${REGENERATE}\`.`);
  });

  test("are generated deterministically", () => {
    const again = path.join(tmp, "b");
    run("bash", [path.join(REPO_ROOT, "scripts", "gen-sdks.sh"), again]);
    expect(firstDifference(generated, again)).toBeUndefined();
  }, 120_000);
});
