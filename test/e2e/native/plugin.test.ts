// The plugin as users install it, by name: scripts/build-plugin.sh builds this platform's tarball
// (a single executable, no Node needed) and its .sha256, a release server on loopback serves them,
// `pulumi plugin install resource txmail <version> --server <url>` installs into a fresh
// PULUMI_HOME, and a Pulumi YAML program runs on it with no `node` on the PATH of the install, the
// engine or the program. And the development path: the checkout's script plugin (support/plugin.ts),
// installed in the Pulumi home rather than put on PATH, previews without the engine's PATH warning.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { controlClient, serviceObjects } from "../../../support/control";
import { createTestStack, REPO_ROOT, type TestStack } from "../harness";
import { nodeFreeTools, PATH_PLUGIN_WARNING, PLUGIN_VERSION, resolvable } from "../../../support/plugin";
import { startService, type TestService } from "../../../support/service";

jest.setTimeout(10 * 60_000);
const run = promisify(execFile);

const program = `name: by-name
runtime: yaml
resources:
  acme:
    type: txmail:index:Tenant
    properties:
      website: byname.example.com
      domain:
        domain: mail.byname.example.com
      bootstrapKey:
        ipAllowList: [127.0.0.1]
`;

/** Pulumi's names for this machine (plugin tarballs are named by them). */
const PLATFORM = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;

let svc: TestService;
let work: string;
let programDir: string;
const stacks: TestStack[] = [];

/** A static file server on loopback, like a release page: the requested paths are recorded. */
async function serveDir(dir: string): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const file = path.join(dir, path.basename(decodeURIComponent(req.url ?? "")));
    if (!fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const tenantKinds = async () =>
  serviceObjects(await controlClient(svc).dumpState())
    .filter((o) => o.kind !== "ApiKey")
    .map((o) => o.kind)
    .sort();

beforeAll(async () => {
  svc = await startService();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-plugin-"));
  programDir = path.join(work, "program");
  fs.mkdirSync(programDir);
  fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), program);
});

afterAll(async () => {
  for (const t of stacks) await t.dispose();
  await svc?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

it("installs by name from a release server and serves a YAML program, with no node anywhere", async () => {
  const release = path.join(work, "release");
  const { stdout } = await run("bash", [path.join(REPO_ROOT, "scripts", "build-plugin.sh"), "--out", release]);
  const tarball = stdout.trim().split("\n").pop()!;
  const name = `pulumi-resource-txmail-v${PLUGIN_VERSION}-${PLATFORM}.tar.gz`;
  expect(path.basename(tarball)).toBe(name);
  const digest = createHash("sha256").update(fs.readFileSync(tarball)).digest("hex");
  expect(fs.readFileSync(`${tarball}.sha256`, "utf8")).toBe(`${digest}  ${name}\n`);

  const server = await serveDir(release);
  const home = path.join(work, "pulumi-home");
  const tools = nodeFreeTools();
  const env = { PATH: path.join(tools, "bin"), HOME: work, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" };
  expect(resolvable("node", env.PATH)).toEqual([]);
  try {
    await run(
      path.join(tools, "bin", "pulumi"),
      ["plugin", "install", "resource", "txmail", PLUGIN_VERSION, "--server", server.url],
      {
        env,
      },
    );
  } finally {
    await server.close();
  }
  expect(server.requests).toEqual([`/${name}`]);
  const installed = path.join(home, "plugins", `resource-txmail-v${PLUGIN_VERSION}`, "pulumi-resource-txmail");
  // The executable itself (an ELF here), not a script that would need an interpreter.
  expect(fs.readFileSync(installed).subarray(0, 4).toString("latin1")).toBe("\x7fELF");

  // The stack's own PATH is the node-free tools (harness: YAML programs run without node), and its
  // Pulumi home the one installed above, which the harness leaves as it is.
  const t = await createTestStack({ programDir, name: "by-name", config: svc.config(), env: { PULUMI_HOME: home } });
  stacks.push(t);
  const up = await t.up();
  expect(up.summary.resourceChanges).toMatchObject({ create: 5 });
  expect(await tenantKinds()).toEqual(["Domain", "SubAccount", "SubAccountApiKey"]);
  await t.destroy();
  expect(await tenantKinds()).toEqual([]);
});

it("previews with the checkout's development plugin, without the engine's PATH warning", async () => {
  const t = await createTestStack({ programDir, name: "dev", config: svc.config(), withoutNode: false });
  stacks.push(t);
  const preview = await t.preview();
  expect(preview.changeSummary).toMatchObject({ create: 5 });
  const printed = `${preview.stdout}\n${preview.stderr}\n${t.log()}`;
  expect(printed.match(PATH_PLUGIN_WARNING) ?? []).toEqual([]);
});
