// The committed Python SDK (sdk/python, package pulumi_txmail) builds into a wheel, type-checks with
// mypy (tools/python/mypy.ini switches off, for the generated package only, the few error codes
// Pulumi's own generated code trips; the file says which and why), and the wheel imports in the venv
// that has the `pulumi` package (.tools/python: `bash scripts/setup.sh --with sdkgen`). The wheel is
// built from a copy and mypy keeps its cache elsewhere, so sdk/python gets no build leftovers.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PYTHON, REPO_ROOT, buildPythonWheel, installPythonSdk, mypy, packageSchema, run } from "./sdks";

describe("the Python SDK (sdk/python)", () => {
  const schema = packageSchema();
  const packageName = schema.language.python.packageName;
  let tmp = "";
  let wheel = "";

  beforeAll(() => {
    if (!fs.existsSync(PYTHON)) {
      throw new Error(
        `no Python venv at ${PYTHON}: run \`bash scripts/setup.sh --with sdkgen\` (or set TXMAIL_PYTHON)`,
      );
    }
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-pysdk-"));
  });

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("builds a wheel of the schema's version", () => {
    wheel = buildPythonWheel(tmp);
    expect(path.basename(wheel)).toBe(`${packageName}-${schema.version}-py3-none-any.whl`);
  }, 180_000);

  test("type-checks with mypy", () => {
    mypy(tmp, ["-p", packageName], { cwd: path.join(REPO_ROOT, "sdk", "python") });
  }, 300_000);

  test("imports from the wheel next to the pulumi package, with every resource and function", () => {
    expect(wheel).not.toBe("");
    const site = installPythonSdk(tmp, wheel);
    const probe = `
import importlib, importlib.metadata, importlib.resources, json, sys
import pulumi
m = importlib.import_module(sys.argv[1])
print(json.dumps({
  "file": m.__file__,
  "version": importlib.metadata.version(sys.argv[1]),
  "plugin": json.loads(importlib.resources.files(m).joinpath("pulumi-plugin.json").read_text()),
  "names": sorted(n for n in dir(m) if not n.startswith("_")),
  "pulumi": pulumi.__file__,
}))`;
    const found = JSON.parse(run(PYTHON, ["-c", probe, packageName], { env: { PYTHONPATH: site } })) as {
      file: string;
      version: string;
      plugin: { resource: boolean; name: string; version: string; server?: string };
      names: string[];
      pulumi: string;
    };
    expect(found.file.startsWith(site)).toBe(true);
    expect(found.version).toBe(schema.version);
    // pulumi-plugin.json: the engine installs the plugin from `server` (the schema's pluginDownloadURL).
    expect(found.plugin).toEqual({
      resource: true,
      name: schema.name,
      version: schema.version,
      server: schema.pluginDownloadURL,
    });
    const tokenName = (token: string) => token.split(":")[2]!;
    const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
    for (const token of Object.keys(schema.resources)) expect(found.names).toContain(tokenName(token));
    for (const token of Object.keys(schema.functions)) expect(found.names).toContain(snake(tokenName(token)));
    expect(found.names).toContain("Provider");
  }, 120_000);
});
