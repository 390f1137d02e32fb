// sdk/go, sdk/python and sdk/java are generated from native/schema.json by Pulumi's own code generators
// (pulumi-java's for Java; scripts/gen-sdks.sh, run by `npm run gen:sdks`) and never edited by hand: this test generates them
// into a temporary directory and fails when a committed file differs, is missing or is extra (the
// schema changed and the SDKs were not regenerated, or a generated file was edited), naming the file
// and the command that regenerates them. The first run on a machine builds the generator (seconds
// with the CLI's Go build cache, ~5 min cold).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type FileTree, REGENERATE, REPO_ROOT, SDK_DIRS, filesUnder, firstDifference, run } from "./sdks";

/** The first file that differs between two SDK trees, with how; undefined when they are identical. */
function firstSdkDifference(expectedRoot: string, actualRoot: string): string | undefined {
  for (const dir of SDK_DIRS) {
    const tree = (root: string): FileTree => ({ root: path.join(root, dir), files: filesUnder(path.join(root, dir)) });
    const difference = firstDifference(tree(expectedRoot), tree(actualRoot), (name) => `${dir}/${name}`, {
      leftOver: "is not generated (left over from an older schema?)",
      differs: "differs from what native/schema.json generates",
    });
    if (difference) return difference;
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
    const difference = firstSdkDifference(generated, REPO_ROOT);
    if (difference) throw new Error(`${difference}: the committed SDKs are stale. Run \`${REGENERATE}\`.`);
  });

  test("are generated deterministically", () => {
    const again = path.join(tmp, "b");
    run("bash", [path.join(REPO_ROOT, "scripts", "gen-sdks.sh"), again]);
    expect(firstSdkDifference(generated, again)).toBeUndefined();
  }, 120_000);
});
