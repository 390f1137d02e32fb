// The Go and Python examples under docs/examples (main.go, __main__.py: each reference page's,
// docs/examples/<page>/, and the Registry overview's, docs/examples/overview/) compile against the
// committed generated SDKs (sdk/go, sdk/python; `npm run gen:sdks`):
//   - Go: every example is gofmt-clean and, as a package of a throwaway module that requires sdk/go through a replace
//     (its go.sum is sdk/go's), passes `go vet` (which type-checks it). Warm, a few seconds; cold, it
//     compiles the Pulumi Go SDK first (~2–3 min on 2 cores, shared with test/e2e/sdks/goSdk.test.ts).
//   - Python: every example byte-compiles and type-checks with mypy against sdk/python, in the venv
//     `bash scripts/setup.sh --with python` builds (tools/python/mypy.ini: the generated package's own
//     known patterns are excused, the examples are not).
// The TypeScript and YAML examples are checked in test/unit/docs/examples.test.ts. The README's Python
// block and Go fragment (the landing page's examples for those languages) are checked the same way.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { EXAMPLE_DIRS, examplePath } from "../../../docs/codegen/reference";
import { PYTHON, REPO_ROOT, mypy, run } from "../sdks/sdks";

/** The README's first ```<lang> block, verbatim. */
function readmeBlock(lang: string): string {
  const block = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(
    fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8"),
  );
  if (!block) throw new Error(`README.md has no \`\`\`${lang} block`);
  return block[1]!;
}

/** The README's Go fragment (a program body) as a whole program. */
function readmeGoProgram(): string {
  const body = readmeBlock("go")
    .trimEnd()
    .split("\n")
    .map((line) => (line ? `\t\t${line}` : line))
    .join("\n");
  return [
    "package main",
    "",
    "import (",
    '\ttxmail "github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail"',
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    body,
    "\t\treturn nil",
    "\t})",
    "}",
    "",
  ].join("\n");
}

const SDK_GO = path.join(REPO_ROOT, "sdk", "go");
const SDK_PYTHON = path.join(REPO_ROOT, "sdk", "python");
const GO_MODULE = "github.com/pulumi-txmail/pulumi-txmail/sdk/go";

let tmp = "";
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-docs-examples-"));
});
afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test("the Go examples pass go vet against sdk/go", () => {
  const dir = path.join(tmp, "go");
  fs.mkdirSync(dir);
  const goVersion = /^go (\S+)$/m.exec(fs.readFileSync(path.join(SDK_GO, "go.mod"), "utf8"))![1];
  fs.writeFileSync(
    path.join(dir, "go.mod"),
    `module txmail-docs-examples\n\ngo ${goVersion}\n\nrequire ${GO_MODULE} v0.0.0\n\nreplace ${GO_MODULE} => ${SDK_GO}\n`,
  );
  fs.copyFileSync(path.join(SDK_GO, "go.sum"), path.join(dir, "go.sum"));
  for (const page of EXAMPLE_DIRS) {
    fs.mkdirSync(path.join(dir, page));
    fs.copyFileSync(examplePath(page, "main.go"), path.join(dir, page, "main.go"));
  }
  fs.mkdirSync(path.join(dir, "readme"));
  fs.writeFileSync(path.join(dir, "readme", "main.go"), readmeGoProgram());
  // -mod=mod: go adds the SDK's own requirements (the Pulumi Go SDK) to the throwaway go.mod.
  run("go", ["vet", "./..."], { cwd: dir, env: { GOFLAGS: "-mod=mod" }, timeoutMs: 900_000 });
  expect(
    run("gofmt", [
      "-l",
      ...EXAMPLE_DIRS.map((page) => examplePath(page, "main.go")),
      path.join(dir, "readme", "main.go"),
    ]),
  ).toBe("");
  // Every example was vetted as its own package.
  const packages = run("go", ["list", "./..."], { cwd: dir, env: { GOFLAGS: "-mod=mod" } })
    .trim()
    .split("\n");
  expect(packages.sort()).toEqual([...EXAMPLE_DIRS, "readme"].map((p) => `txmail-docs-examples/${p}`).sort());
}, 900_000);

describe("the Python examples", () => {
  let files: string[] = [];
  beforeAll(() => {
    if (!fs.existsSync(PYTHON)) {
      throw new Error(
        `no Python venv at ${PYTHON}: run \`bash scripts/setup.sh --with python\` (or set TXMAIL_PYTHON)`,
      );
    }
    // One mypy run: each example as its own module (they are all __main__.py in their folders).
    const dir = path.join(tmp, "python");
    fs.mkdirSync(dir);
    files = EXAMPLE_DIRS.map((page) => {
      const file = path.join(dir, `example_${page}.py`);
      fs.copyFileSync(examplePath(page, "__main__.py"), file);
      return file;
    });
    const readme = path.join(dir, "example_readme.py");
    fs.writeFileSync(readme, readmeBlock("python"));
    files.push(readme);
  });

  test("byte-compile", () => {
    run(PYTHON, ["-c", "import py_compile, sys\nfor f in sys.argv[1:]: py_compile.compile(f, doraise=True)", ...files]);
  });

  test("type-check with mypy against sdk/python", () => {
    mypy(tmp, files, { env: { MYPYPATH: SDK_PYTHON } });
  }, 300_000);
});
