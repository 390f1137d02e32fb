// The committed Go SDK (sdk/go, module github.com/pulumi-txmail/pulumi-txmail/sdk/go, package txmail)
// builds and passes `go vet` with its committed go.mod/go.sum (-mod=readonly: nothing to download or
// add), and its module is what the schema and tools/langhost/go.mod say. Cold, the build compiles the
// Pulumi Go SDK (~2–3 min on 2 cores); warm, seconds.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, packageSchema, run } from "./sdks";

const SDK = path.join(REPO_ROOT, "sdk", "go");
const env = { GOFLAGS: "-mod=readonly" };

/** The version a go.mod requires of a module. */
function required(goMod: string, module: string): string | undefined {
  const line = fs
    .readFileSync(goMod, "utf8")
    .split("\n")
    .map((l) => l.trim().replace(/^require\s+/, ""))
    .find((l) => l.startsWith(`${module} `));
  return line?.split(/\s+/)[1];
}

describe("the Go SDK (sdk/go)", () => {
  test("is the module the schema's importBasePath names, on the SDK version the CLI is built with", () => {
    const importBasePath = packageSchema().language.go.importBasePath;
    const goMod = fs.readFileSync(path.join(SDK, "go.mod"), "utf8");
    expect(goMod.split("\n")[0]).toBe(`module ${path.posix.dirname(importBasePath)}`);
    expect(fs.existsSync(path.join(SDK, path.posix.basename(importBasePath), "doc.go"))).toBe(true);
    const sdk = "github.com/pulumi/pulumi/sdk/v3";
    expect(required(path.join(SDK, "go.mod"), sdk)).toBe(
      required(path.join(REPO_ROOT, "tools", "langhost", "go.mod"), sdk),
    );
  });

  test("builds and passes go vet (-mod=readonly)", () => {
    run("go", ["build", "./..."], { cwd: SDK, env });
    run("go", ["vet", "./..."], { cwd: SDK, env });
  }, 900_000);
});
