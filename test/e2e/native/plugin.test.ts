// The plugin as users install it: scripts/build-plugin.sh builds the tarball, `pulumi plugin install
// resource txmail <version> --file <tarball>` installs it into a fresh PULUMI_HOME, and a program
// with the native face runs on it while no pulumi-resource-txmail is on PATH or next to `pulumi`.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { controlClient, serviceObjects } from "../control";
import { createTestStack, REPO_ROOT, TOOLS_DIR, type TestStack } from "../harness";
import { startService, type TestService } from "../service";

jest.setTimeout(15 * 60_000);
const run = promisify(execFile);

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
  .version;
let svc: TestService;
let work: string;
let t: TestStack | undefined;

/** A tools root whose bin/ has the CLI, the Node language host, the dynamic plugin and node: not txmail's. */
function toolsWithoutTxmail(into: string): string {
  const bin = path.join(into, "tools", "bin");
  fs.mkdirSync(bin, { recursive: true });
  for (const tool of ["pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs", "node"]) {
    fs.symlinkSync(fs.realpathSync(path.join(TOOLS_DIR, "bin", tool)), path.join(bin, tool));
  }
  // The engine also looks for plugins next to its own executable, and .tools/bin/pulumi is a hard
  // link living beside the txmail plugin: this CLI must be a file of its own here.
  try {
    fs.linkSync(path.join(TOOLS_DIR, "bin", "pulumi"), path.join(bin, "pulumi"));
  } catch {
    fs.copyFileSync(path.join(TOOLS_DIR, "bin", "pulumi"), path.join(bin, "pulumi"));
    fs.chmodSync(path.join(bin, "pulumi"), 0o755);
  }
  return path.dirname(bin);
}

beforeAll(async () => {
  svc = await startService();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-plugin-"));
});

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

it("installs from its tarball and serves a program, with no plugin on PATH", async () => {
  const { stdout } = await run("bash", [path.join(REPO_ROOT, "scripts", "build-plugin.sh"), path.join(work, "out")], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const tarball = stdout.trim().split("\n").pop()!;
  expect(path.basename(tarball)).toBe(`pulumi-resource-txmail-v${VERSION}-linux-amd64.tar.gz`);

  const tools = toolsWithoutTxmail(work);
  const home = path.join(work, "pulumi-home");
  const pulumi = path.join(tools, "bin", "pulumi");
  const env = { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" };
  await run(pulumi, ["plugin", "install", "resource", "txmail", VERSION, "--file", tarball], { env });
  const listed = (await run(pulumi, ["plugin", "ls", "--json"], { env })).stdout;
  expect(JSON.parse(listed)).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: "txmail", kind: "resource", version: VERSION })]),
  );

  t = await createTestStack({
    programDir: path.join(__dirname, "..", "programs", "native"),
    name: "plugin",
    toolsRoot: tools,
    env: { PULUMI_HOME: home },
    config: { ...svc.config(), "txmail:face": { value: "native" } },
  });
  // Nowhere on the engine's PATH, nor next to its CLI: only the installed copy can serve it.
  const enginePath = (t.stack.workspace as LocalWorkspace).envVars.PATH ?? "";
  expect(enginePath).toContain(path.join(tools, "bin"));
  for (const dir of [...enginePath.split(":"), path.dirname(fs.realpathSync(pulumi))])
    expect(fs.existsSync(path.join(dir, "pulumi-resource-txmail"))).toBe(false);

  const up = await t.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 5 });
  const kinds = serviceObjects(await controlClient(svc).dumpState())
    .filter((o) => o.kind !== "ApiKey")
    .map((o) => o.kind)
    .sort();
  expect(kinds).toEqual(["Domain", "Route", "SubAccount", "SubAccountApiKey"]);
  await t.destroy();
  expect(serviceObjects(await controlClient(svc).dumpState()).filter((o) => o.kind !== "ApiKey")).toEqual([]);
});
