// The examples under docs/examples/<page>/ (index.ts, __main__.py, main.go, Pulumi.yaml) are
// generated from each page's PCL program, main.pp, by Pulumi's program generators
// (scripts/gen-examples.sh, `npm run gen:examples`) and never edited by hand: this test generates them
// into a temporary directory and fails when a committed example differs, is missing or is extra,
// naming the file and the command that regenerates them. Generating takes about a second (the
// generator is built with the SDK generator, scripts/build-sdkgen.sh).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EXAMPLES_DIR } from "../../../docs/codegen/reference";
import { REPO_ROOT, filesUnder, firstDifference, run } from "../sdks/sdks";

const SOURCE = "main.pp";
const REGENERATE = "npm run gen:examples";

/** The first file that differs between a generated tree and the committed examples; undefined when none. */
function firstExampleDifference(generatedRoot: string, committedRoot: string): string | undefined {
  return firstDifference(
    { root: generatedRoot, files: filesUnder(generatedRoot) },
    // The committed pages' generated files: not their sources, nor files beside the pages' folders.
    {
      root: committedRoot,
      files: filesUnder(committedRoot).filter((f) => f.includes("/") && path.basename(f) !== SOURCE),
    },
    (name) => `docs/examples/${name}`,
    {
      leftOver: `is not generated from a ${SOURCE} (left over?)`,
      differs: `differs from what its ${SOURCE} generates`,
    },
  );
}

describe("the examples of every language (docs/examples/<page>/)", () => {
  let tmp = "";
  const generate = (out: string) => run("bash", [path.join(REPO_ROOT, "scripts", "gen-examples.sh"), out]);

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-examples-"));
    generate(path.join(tmp, "a"));
  }, 600_000);

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("are what their main.pp generates (not stale, not hand-edited)", () => {
    const difference = firstExampleDifference(path.join(tmp, "a"), EXAMPLES_DIR);
    if (difference) throw new Error(`${difference}: the committed examples are stale. Run \`${REGENERATE}\`.`);
  });

  test("are generated deterministically", () => {
    generate(path.join(tmp, "b"));
    expect(firstExampleDifference(path.join(tmp, "a"), path.join(tmp, "b"))).toBeUndefined();
  }, 120_000);
});
