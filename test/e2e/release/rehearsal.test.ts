// The release rehearsal: a release built by scripts/release.sh (a version one patch above the
// checkout's, stamped into every artifact) is published with the ordinary clients to real registry
// servers on loopback — Verdaccio (`npm publish`), pypiserver (`twine upload`), a Go module proxy
// directory and a release page for the plugin tarballs, both served over HTTP, and a Maven repository
// (Maven's `deploy:deploy-file`) — and installed by name, as a new user would, in fresh directories:
// TypeScript `npm install pulumi-txmail@V`, Python `pip install pulumi-txmail==V`, Go
// `go get …/sdk/go@vV`, a Maven project naming io.github.pulumi-txmail:txmail:V, and a YAML program
// naming the package. Each brings up one Tenant against the emulator and destroys it. The native plugin is
// installed nowhere beforehand: a fresh PULUMI_HOME, automatic acquisition on, and
// PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES sending the schema's pluginDownloadURL to the loopback release
// page. Go, Python, Java and YAML run with no `node` on PATH. No user environment or program file holds a
// path of this checkout, and every registry, index and proxy the clients know is on 127.0.0.1:
// the servers hold the dependencies too (scripts/setup.sh --with release seeds them, cached).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { controlClient, seqOf, serviceObjects } from "../../../support/control";
import { PASSPHRASE } from "../../../support/engineEnv";
import { commandPath, MAVEN_REPO } from "../../../support/java";
import { resolvable } from "../../../support/plugin";
import { killLiveGroups, spawnBounded } from "../../../support/processes";
import { readManifest, readZip, type ReleaseManifest } from "../../../support/release";
import {
  npmArgs,
  npmLogin,
  registryTools,
  serveFiles,
  serveMavenRepository,
  type MavenServer,
  startPypiserver,
  startVerdaccio,
  type Server,
} from "../../../support/registries";
import { REPO_ROOT, TOOLS_DIR } from "../../../support/root";
import { startService, type TestService } from "../../../support/service";
import { readmeExample } from "../readme";

jest.setTimeout(20 * 60_000);
const execFileAsync = promisify(execFile);

const checkoutVersion = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }
).version;
/** The rehearsed version: one patch above the checkout's, so a stale stamp anywhere shows. */
const VERSION = checkoutVersion.replace(/\.(\d+)$/, (_m, patch: string) => `.${Number(patch) + 1}`);
/** Every form of this checkout's root a path could take (the worktree, its links' targets). */
const CHECKOUT_ROOTS = [
  ...new Set([
    REPO_ROOT,
    fs.realpathSync(REPO_ROOT),
    path.dirname(fs.realpathSync(path.join(REPO_ROOT, "node_modules"))),
  ]),
];
/** Pulumi's name for this machine's platform. */
const PLATFORM = `${process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;

/** The real (cache) directory of a tool setup linked into .tools. */
const realDir = (link: string) => path.dirname(fs.realpathSync(link));

let work: string;
let release: ReleaseManifest;
let releaseDir: string;
let svc: TestService;
const servers: Record<"npm" | "pypi" | "goproxy" | "plugins", Server> & { maven: MavenServer } = {} as Record<
  "npm" | "pypi" | "goproxy" | "plugins",
  Server
> & { maven: MavenServer };
const timings: Record<string, number> = {};
let pluginDownloadURL: string;
/** release.sh's error on the commit whose SDKs were not regenerated ("" had it not failed). */
let refusal: string;

/**
 * How long one command may run: past it, it is hung, not slow. Generous: on a 2-core machine an
 * `npm install`, a `pip install` or an up takes seconds here; Go's commands get GO_TIMEOUT_MS (a
 * cold build cache compiles Pulumi's Go SDK).
 */
const RUN_TIMEOUT_MS = 5 * 60_000;
const GO_TIMEOUT_MS = 10 * 60_000;

/**
 * Runs a program with exactly `env` (nothing of this process's), failing with its output. It runs in
 * its own process group (its pid is the group's id), bounded: past `timeoutMs` the whole group (the
 * command and all it started: engines, plugins, compilers) is killed and the run fails, naming the
 * command. Whatever of the group outlives the command is killed when it exits.
 */
/** This process's environment, as run() takes it (unset variables left out). */
function processEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

async function run(
  file: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; input?: string; timeoutMs?: number },
): Promise<string> {
  const what = `${file} ${args.join(" ")} (in ${opts.cwd})`;
  // What of its group is left when it exits (nothing, normally) goes with it.
  const { child, done } = spawnBounded(file, args, {
    cwd: opts.cwd,
    env: opts.env,
    what,
    timeoutMs: opts.timeoutMs ?? RUN_TIMEOUT_MS,
    endGroupOnExit: true,
  });
  child.stdin!.end(opts.input ?? "");
  const { code, signal, stdout, stderr } = await done;
  if (code !== 0)
    throw new Error(`${what} exited ${code ?? signal}:\n${stdout.slice(-5000)}\n${stderr.slice(-30_000)}`);
  return stdout;
}

/** A new user's home: fresh directories for Pulumi, state, caches; the environment every language shares. */
function newUser(name: string, path_: string[]): { home: string; env: Record<string, string> } {
  const home = fs.mkdtempSync(path.join(work, `${name}-`));
  const env: Record<string, string> = {
    HOME: home,
    TMPDIR: path.join(home, "tmp"),
    PATH: path_.join(path.delimiter),
    PULUMI_HOME: path.join(home, ".pulumi"),
    PULUMI_BACKEND_URL: `file://${path.join(home, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // Automatic plugin acquisition stays on (PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION unset); the
    // schema's pluginDownloadURL is sent to the loopback release page (the engine reads the variable as
    // `regexp=URL` pairs, the regexp matched against the plugin's download URL).
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${pluginDownloadURL.replace(/[.]/g, "\\.")}$=${servers.plugins.url}`,
    TXMAIL_API_KEY: svc.apiKey,
    TXMAIL_ACCOUNT_ID: svc.accountId,
    TXMAIL_BASE_URL: svc.baseUrl,
  };
  fs.mkdirSync(env.TMPDIR!);
  fs.mkdirSync(path.join(home, "state"));
  return { home, env };
}

/** Checks that hold for every language: no checkout path, only loopback URLs, the plugin acquired. */
function expectNewUser(env: Record<string, string>, programFiles: string[]): void {
  for (const [name, value] of Object.entries(env))
    for (const root of CHECKOUT_ROOTS)
      expect(`${name}=${value.includes(root) ? root : "(no checkout path)"}`).toBe(`${name}=(no checkout path)`);
  const urls = Object.values(env).flatMap((v) => v.match(/\b(?:https?|wss?):\/\/[^\s,=]+/g) ?? []);
  for (const url of urls) expect(new URL(url).hostname).toBe("127.0.0.1");
  for (const file of programFiles) {
    const text = fs.readFileSync(file, "latin1");
    for (const root of CHECKOUT_ROOTS)
      expect(`${file}: ${text.includes(root) ? root : "clean"}`).toBe(`${file}: clean`);
  }
}

/** Every file under `dir` (recursively), skipping directories named in `skip`. */
function filesUnder(dir: string, skip: string[] = []): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(
      (e) => e.isFile() && !skip.some((s) => path.join(e.parentPath, e.name).includes(`${path.sep}${s}${path.sep}`)),
    )
    .map((e) => path.join(e.parentPath, e.name));
}

/** How many requests each server had when the running test started. */
const requestsAtStart = new Map<Server, number>();

/** The paths `server` was asked for during the running test (not an earlier test's). */
const requestsOfThisTest = (server: Server): string[] => server.requests.slice(requestsAtStart.get(server) ?? 0);

/** The plugin as the engine installed it in `pulumiHome`, and the release page's request for it in this test. */
function expectPluginAcquired(pulumiHome: string): void {
  const installed = path.join(pulumiHome, "plugins", `resource-txmail-v${VERSION}`, "pulumi-resource-txmail");
  // The executable itself (an ELF here), not a script that would need an interpreter.
  expect(fs.readFileSync(installed).subarray(0, 4).toString("latin1")).toBe("\x7fELF");
  // Fetched by this test's engine: each language's test proves its own acquisition.
  expect(requestsOfThisTest(servers.plugins)).toContain(`/pulumi-resource-txmail-v${VERSION}-${PLATFORM}.tar.gz`);
}

/** The emulator's tenant objects (its own parent key aside). */
const tenantKinds = async () =>
  serviceObjects(await controlClient(svc).dumpState())
    .filter((o) => o.kind !== "ApiKey")
    .map((o) => o.kind)
    .sort();

/** Each step line a rehearsal program prints: `{"step": …, "changes": {…}}`. */
const steps = (stdout: string) =>
  stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { step: string; changes: Record<string, number> });

/** The Tenant an inline program (Python, Go) declares: its resource name (the sub account's name), website and domain. */
interface ProgramTenant {
  name: string;
  website: string;
  domain: string;
}

/**
 * An inline program's run (Python, Go): it printed an up that created the stack, the Tenant and its
 * sub account, bootstrap key and domain, and a destroy that deleted them; the engine acquired the
 * plugin; the service saw, in this test, the tenant's sub account created (its name and website in
 * the service's record) and a domain created in it and deleted by its name, and holds no tenant
 * object afterwards.
 */
async function expectUpThenDestroy(stdout: string, env: Record<string, string>, tenant: ProgramTenant): Promise<void> {
  expect(steps(stdout)).toEqual([
    { step: "up", changes: { create: 5 } },
    { step: "destroy", changes: { delete: 5 } },
  ]);
  expectPluginAcquired(env.PULUMI_HOME!);
  const control = controlClient(svc);
  const dump = await control.dumpState();
  // A deleted sub account stays in the dump (status "deleted"): the one this program made, by its website.
  const subAccounts = dump.accounts.filter(
    (a) => a.parent_account_id === dump.parent_account_id && a.website === tenant.website,
  );
  expect(subAccounts.map((a) => ({ name: a.name, status: a.status }))).toEqual([
    { name: tenant.name, status: "deleted" },
  ]);
  const sub = subAccounts[0]!.id;
  // The request log holds this test's requests only (cleared before each test): exactly one of each, in order.
  const log = await control.requests();
  const parent = `/v2/accounts/${dump.parent_account_id}`;
  const order = [
    seqOf(log, "POST", `${parent}/sub-accounts`, 201),
    seqOf(log, "POST", `/v2/accounts/${sub}/domains`, 201),
    seqOf(log, "DELETE", `/v2/accounts/${sub}/domains/${tenant.domain}`, 200),
    seqOf(log, "DELETE", `${parent}/sub-accounts/${sub}`, 200),
  ];
  expect(order).toEqual([...order].sort((a, b) => a - b));
  expect(await tenantKinds()).toEqual([]);
}

/** The directory of the CLI a new user installed from the loopback registry, and the CLI. */
const registryCli = () => fs.realpathSync(path.join(TOOLS_DIR, "registry", "cli"));
const registryPulumi = () => path.join(registryCli(), "pulumi");

/** A new stack of `project` on the emulator's account (its API key a secret), with `config` besides. */
async function newStack(
  pulumi: string,
  project: string,
  env: Record<string, string>,
  stack: string,
  config: Record<string, string> = {},
): Promise<void> {
  await run(pulumi, ["stack", "init", stack], { cwd: project, env });
  const settings = { ...config, "txmail:accountId": svc.accountId, "txmail:baseUrl": svc.baseUrl };
  for (const [key, value] of Object.entries(settings)) {
    await run(pulumi, ["config", "set", key, value], { cwd: project, env });
  }
  await run(pulumi, ["config", "set", "--secret", "txmail:apiKey"], { cwd: project, env, input: svc.apiKey });
}

/**
 * A program the CLI runs (Java, YAML) declaring one Tenant: its `up` acquires the plugin and makes
 * the sub account, bootstrap key and domain; its `destroy` leaves no tenant object.
 */
async function expectTenantUpThenDestroy(
  language: string,
  pulumi: string,
  project: string,
  env: Record<string, string>,
): Promise<void> {
  await time(`${language} up`, () =>
    run(pulumi, ["up", "--yes", "--skip-preview", "--color", "never"], { cwd: project, env }),
  );
  expectPluginAcquired(env.PULUMI_HOME!);
  expect(await tenantKinds()).toEqual(["Domain", "SubAccount", "SubAccountApiKey"]);
  await run(pulumi, ["destroy", "--yes", "--skip-preview", "--color", "never"], { cwd: project, env });
  expect(await tenantKinds()).toEqual([]);
}

/** A file left in the source checkout's dist/ (ignored by git): a release must not ship it. */
const STRAY = "stray-from-the-checkout.js";

/**
 * What a maintainer does before a release, in a copy of this checkout's work (the files git knows,
 * uncommitted changes included, committed there): set the version, regenerate the SDKs, commit. The
 * copy has the checkout's node_modules and .tools linked (git ignores both) and a copy of its dist/
 * — a build output with a stray file in it, which the release must not use.
 */
async function maintainersCommit(dir: string, version: string): Promise<void> {
  fs.mkdirSync(dir);
  await run(
    "bash",
    [
      "-c",
      `git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\\0' "$f"; done | tar --null -T - -cf - | tar -xf - -C "$0"`,
      dir,
    ],
    { cwd: REPO_ROOT, env: processEnv() },
  );
  fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, "node_modules")), path.join(dir, "node_modules"));
  fs.symlinkSync(fs.realpathSync(TOOLS_DIR), path.join(dir, ".tools"));
  fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(dir, "dist"), { recursive: true });
  fs.writeFileSync(path.join(dir, "dist", STRAY), "module.exports = 'not built from this commit';\n");
  await git(dir, "init", "-q");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "the developer's work");
  await run("bash", ["scripts/set-version.sh", version], { cwd: dir, env: processEnv() });
  // `npm run gen:sdks` after its build step: the copied dist/ is the checkout's build of these same
  // sources (setup's), and tsc in the copy would rebuild it whole (~10 s): its build info names the
  // checkout's node_modules by another path.
  await run("node", ["dist/native/schema/generate.js"], { cwd: dir, env: processEnv() });
  await run("bash", ["scripts/gen-sdks.sh"], { cwd: dir, env: { ...processEnv(), GOPROXY: "off" } });
  await git(dir, "commit", "-q", "-am", `release v${version}`);
}

/** git in `dir`, as the rehearsal's maintainer. */
const git = (dir: string, ...args: string[]) =>
  run("git", ["-c", "user.name=rehearsal", "-c", "user.email=rehearsal@example.com", ...args], {
    cwd: dir,
    env: processEnv(),
  });

const time = async <T>(label: string, f: () => Promise<T>): Promise<T> => {
  const started = Date.now();
  try {
    return await f();
  } finally {
    timings[label] = Math.round((Date.now() - started) / 100) / 10;
  }
};

beforeAll(async () => {
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "txmail-rehearsal-")));
  const tools = registryTools();
  releaseDir = path.join(work, "release");
  const source = path.join(work, "source");
  // The release: this machine's plugin only (the others are the same build for other Node binaries;
  // scripts/release.sh builds all three by default), from the maintainer's copy. Offline: npm ci
  // from npm's cache (npm_config_offline), the Go SDK's `go mod tidy` from Go's module cache.
  const releaseSh = () =>
    run(
      "bash",
      [path.join(source, "scripts", "release.sh"), VERSION, "--out", releaseDir, "--platform", PLATFORM],
      // Bounded generously: a cold build fetches other platforms' Node binaries first.
      { cwd: source, env: { ...processEnv(), GOPROXY: "off", npm_config_offline: "true" }, timeoutMs: 15 * 60_000 },
    );
  await time("maintainer's commit", () => maintainersCommit(source, VERSION));
  // A generated file edited by hand and committed: refused before anything is installed or packed.
  const edited = path.join(source, "sdk", "go", "txmail", "provider.go");
  fs.appendFileSync(edited, "\n// edited by hand\n");
  await git(source, "commit", "-q", "-am", "a hand edit");
  refusal = await time("release.sh refusal", () =>
    releaseSh().then(
      () => "",
      (e: Error) => e.message,
    ),
  );
  await git(source, "reset", "-q", "--hard", "HEAD~1");
  await time("release.sh", releaseSh);
  release = readManifest(releaseDir);
  pluginDownloadURL = (
    JSON.parse(fs.readFileSync(path.join(releaseDir, release.schema), "utf8")) as { pluginDownloadURL: string }
  ).pluginDownloadURL;
  svc = await startService();

  // The registries, holding the dependencies (copies of setup's seeded contents) and no uplink.
  const npmHome = path.join(work, "verdaccio");
  fs.cpSync(path.join(tools.npmStorage, "storage"), path.join(npmHome, "storage"), { recursive: true });
  servers.npm = await startVerdaccio(tools.verdaccio, npmHome);
  const pypi = path.join(work, "pypi");
  fs.cpSync(tools.wheelhouse, pypi, { recursive: true });
  servers.pypi = await startPypiserver(tools.python, pypi);
  const goCache = (await execFileAsync("go", ["env", "GOMODCACHE"])).stdout.trim();
  // The release's module, then Go's module cache, itself in the proxy layout (cache/download).
  servers.goproxy = await serveFiles([
    path.join(releaseDir, release.go.proxy),
    path.join(goCache, "cache", "download"),
  ]);
  // The release page: the tarballs at its root, as GitHub release assets are.
  servers.plugins = await serveFiles([path.join(releaseDir, "plugin")]);

  // Published with the ordinary clients, as examples/ci/release.yml does against the real registries.
  const publisher = path.join(work, "publisher");
  fs.mkdirSync(publisher);
  const npmrc = path.join(publisher, "npmrc");
  const registryHost = servers.npm.url.replace(/^http:/, "");
  fs.writeFileSync(npmrc, `${registryHost}:_authToken=${await npmLogin(servers.npm.url)}\n`, { mode: 0o600 });
  await time("npm publish", () =>
    run(
      "npm",
      [
        "publish",
        path.join(releaseDir, release.npm[0]!),
        ...npmArgs(servers.npm.url, npmrc, path.join(publisher, "npm-cache")),
      ],
      { cwd: publisher, env: processEnv() },
    ),
  );
  const pypirc = path.join(publisher, "pypirc");
  fs.writeFileSync(pypirc, "");
  await time("twine upload", () =>
    run(
      path.join(tools.python, "bin", "twine"),
      [
        "upload",
        "--non-interactive",
        "--disable-progress-bar",
        "--config-file",
        pypirc,
        "--repository-url",
        servers.pypi.url,
        "-u",
        "rehearsal",
        "-p",
        "unused",
        ...release.python.map((f) => path.join(releaseDir, f)),
      ],
      { cwd: publisher, env: processEnv() },
    ),
  );
  await deployJavaSdk(publisher);
}, 20 * 60_000);

/** Maven's arguments for a user whose home is `home`: its settings.xml (only `mirror`), its own local repository. */
function mavenUser(home: string, mirror: string): { args: string[]; env: Record<string, string> } {
  const m2 = path.join(home, ".m2");
  fs.mkdirSync(m2, { recursive: true });
  const settings = path.join(m2, "settings.xml");
  fs.writeFileSync(
    settings,
    [
      "<settings>",
      `  <localRepository>${path.join(m2, "repository")}</localRepository>`,
      `  <mirrors><mirror><id>loopback</id><mirrorOf>*</mirrorOf><url>${mirror}</url></mirror></mirrors>`,
      "</settings>",
      "",
    ].join("\n"),
  );
  return {
    args: ["-B", "--no-transfer-progress", "-s", settings],
    // The JVM takes its user.home from the password database, not HOME: Maven's ~ is set to the new user's.
    env: {
      MAVEN_OPTS: `-Duser.home=${home}`,
      PATH: [path.dirname(commandPath("mvn")), path.dirname(commandPath("java")), "/usr/bin", "/bin"].join(
        path.delimiter,
      ),
    },
  };
}

/**
 * The Maven repository on loopback (setup's pre-filled repository, read only, as its Maven Central),
 * and the release's Java SDK deployed to it with Maven's own client: `deploy:deploy-file` of the jar
 * with its pom, sources and javadoc (Maven uploads each with its checksums and the metadata), as a
 * publisher with a fresh local repository and a settings.xml that reaches only the loopback server,
 * which also serves the deploy plugin itself.
 */
async function deployJavaSdk(publisher: string): Promise<void> {
  servers.maven = await serveMavenRepository(path.join(work, "maven"), fs.realpathSync(MAVEN_REPO));
  const { maven } = release;
  const base = path.join(
    releaseDir,
    maven.repository,
    ...maven.groupId.split("."),
    maven.artifactId,
    maven.version,
    `${maven.artifactId}-${maven.version}`,
  );
  const user = mavenUser(path.join(publisher, "maven-home"), servers.maven.url);
  await time("mvn deploy", () =>
    run(
      "mvn",
      [
        ...user.args,
        // The plugin's version as the SDK's pom pins it (setup's repository holds that one).
        "org.apache.maven.plugins:maven-deploy-plugin:3.1.3:deploy-file",
        `-Dfile=${base}.jar`,
        `-DpomFile=${base}.pom`,
        `-Dsources=${base}-sources.jar`,
        `-Djavadoc=${base}-javadoc.jar`,
        `-Durl=${servers.maven.url}`,
        "-DrepositoryId=rehearsal",
      ],
      { cwd: publisher, env: { ...processEnv(), ...user.env } },
    ),
  );
}

beforeEach(async () => {
  for (const server of Object.values(servers)) requestsAtStart.set(server, server.requests.length);
  await controlClient(svc).clearRequests();
});

afterAll(async () => {
  // A command still running here belongs to a test jest timed out: it ends with its whole group.
  killLiveGroups();
  for (const server of Object.values(servers)) await server?.close();
  await svc?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  // The measured times (seconds), for the release notes: release.sh, publishing, each language's install and up.
  console.log(`release rehearsal timings (s): ${JSON.stringify(timings)}`);
});

it("refuses a commit whose generated SDK was edited by hand, before installing anything", () => {
  expect(refusal).toMatch(
    new RegExp(`the commit's generated files are not what v${VERSION.replace(/\./g, "\\.")} generates`),
  );
  // Named: the file (of the Go SDK, what users fetch from the tag), with what to do.
  expect(refusal).toContain("Files committed/sdk/go/txmail/provider.go and tree/sdk/go/txmail/provider.go differ");
  expect(refusal).toContain(`bash scripts/set-version.sh ${VERSION} && npm run gen:sdks`);
  expect(refusal).not.toMatch(/npm ci|npm package/);
});

it("builds from the commit alone: a stray file in the checkout's dist/ is not in the npm package", async () => {
  const listing = await run("tar", ["-tzf", path.join(releaseDir, release.npm[0]!)], { cwd: work, env: processEnv() });
  expect(listing).toContain("package/dist/native/main.js");
  expect(listing).not.toContain(STRAY);
  // The SDK's field-list generator is built into dist/ for `npm run gen:sdk`, and never shipped.
  expect(listing).not.toContain("package/dist/tools/");
});

it("publishes the release: each registry lists the version", async () => {
  const npm = (await (await fetch(new URL("pulumi-txmail", servers.npm.url))).json()) as {
    versions: Record<string, unknown>;
  };
  expect(Object.keys(npm.versions)).toEqual([VERSION]);
  const simple = await (await fetch(new URL("simple/pulumi-txmail/", servers.pypi.url))).text();
  expect(simple).toContain(`pulumi_txmail-${VERSION}-py3-none-any.whl`);
  expect(simple).toContain(`pulumi_txmail-${VERSION}.tar.gz`);
  const list = await (await fetch(new URL(`${release.go.module}/@v/list`, servers.goproxy.url))).text();
  expect(list.split("\n")).toContain(`v${VERSION}`);
  expect(release.go.tag).toBe(`sdk/go/v${VERSION}`);
  const { groupId, artifactId } = release.maven;
  const metadata = await (
    await fetch(new URL(`${groupId.replace(/\./g, "/")}/${artifactId}/maven-metadata.xml`, servers.maven.url))
  ).text();
  expect(metadata).toContain(`<version>${VERSION}</version>`);
  // Maven's deploy uploaded each file with its checksums: what Maven Central takes.
  const folder = `/${groupId.replace(/\./g, "/")}/${artifactId}/${VERSION}/${artifactId}-${VERSION}`;
  for (const file of ["", "-sources", "-javadoc"].map((c) => `${folder}${c}.jar`).concat(`${folder}.pom`))
    expect(servers.maven.uploads).toEqual(expect.arrayContaining([file, `${file}.md5`, `${file}.sha1`]));
});

it("TypeScript: npm install pulumi-txmail@V by name, a Tenant up and destroy, the native face's plugin acquired", async () => {
  const { home, env } = newUser("typescript", []);
  const project = path.join(home, "project");
  fs.mkdirSync(project);
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  fs.writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({
      name: "rehearsal-typescript",
      private: true,
      main: "index.ts",
      dependencies: { "@pulumi/pulumi": manifest.dependencies["@pulumi/pulumi"] },
      devDependencies: {
        typescript: manifest.devDependencies.typescript,
        "@types/node": manifest.devDependencies["@types/node"],
      },
    }),
  );
  fs.copyFileSync(
    path.join(REPO_ROOT, "test", "e2e", "programs", "one", "tsconfig.json"),
    path.join(project, "tsconfig.json"),
  );
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: rehearsal-typescript\nruntime: nodejs\n");
  fs.writeFileSync(path.join(project, "index.ts"), readmeExample());
  fs.writeFileSync(path.join(home, ".npmrc"), "");
  fs.writeFileSync(path.join(home, "global-npmrc"), "");
  // The CLI, the Node language host and Node itself from the tools cache; the dynamic provider's
  // plugin script from the user's own @pulumi/pulumi (a CLI install ships it beside `pulumi`).
  const bin = path.join(home, "bin");
  fs.mkdirSync(bin);
  fs.symlinkSync(
    path.join(project, "node_modules", "@pulumi", "pulumi", "pulumi-resource-pulumi-nodejs"),
    path.join(bin, "pulumi-resource-pulumi-nodejs"),
  );
  env.PATH = [
    bin,
    registryCli(),
    realDir(path.join(TOOLS_DIR, "bin", "pulumi-language-nodejs")),
    realDir(path.join(TOOLS_DIR, "bin", "node")),
    "/usr/bin",
    "/bin",
  ].join(path.delimiter);
  env.npm_config_globalconfig = path.join(home, "global-npmrc");
  const npm = path.join(realDir(path.join(TOOLS_DIR, "bin", "node")), "npm");
  const npmBin = fs.existsSync(npm) ? npm : "npm";
  const args = npmArgs(servers.npm.url, path.join(home, ".npmrc"), path.join(home, ".npm"));
  // What a user types: the package by name (npm installs the project's other dependencies with it).
  await time("typescript install", () =>
    run(npmBin, ["install", `pulumi-txmail@${VERSION}`, ...args], { cwd: project, env }),
  );
  const installed = JSON.parse(
    fs.readFileSync(path.join(project, "node_modules", "pulumi-txmail", "package.json"), "utf8"),
  ) as { version: string };
  expect(installed.version).toBe(VERSION);
  // One @pulumi/pulumi (the user's): the package takes Pulumi's SDK as a range, never its own copy.
  const pulumiCopies = fs
    .readdirSync(path.join(project, "node_modules"), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(path.join("@pulumi", "pulumi", "package.json")));
  expect(pulumiCopies).toEqual([path.join("@pulumi", "pulumi", "package.json")]);
  expectNewUser(env, [
    ...filesUnder(project, ["node_modules"]),
    ...filesUnder(path.join(project, "node_modules", "pulumi-txmail")),
  ]);

  const pulumi = registryPulumi();
  await newStack(pulumi, project, env, "dev");
  await time("typescript up", () =>
    run(pulumi, ["up", "--yes", "--skip-preview", "--color", "never"], { cwd: project, env }),
  );
  expect(await tenantKinds()).toEqual(expect.arrayContaining(["Domain", "SubAccount", "SubAccountApiKey", "Webhook"]));
  await run(pulumi, ["destroy", "--yes", "--skip-preview", "--color", "never"], { cwd: project, env });
  expect(await tenantKinds()).toEqual([]);

  // The native face of the same package acquires its plugin by name, as Go, Python and YAML do: the
  // SDK registers native resources with the package's version and pluginDownloadURL. A preview
  // loads the provider (its check and diff), so it needs the plugin.
  await newStack(pulumi, project, env, "native", { "txmail:face": "native" });
  const preview = await time("typescript native preview", () =>
    run(pulumi, ["preview", "--color", "never"], { cwd: project, env }),
  );
  expect(preview).toMatch(/txmail:index:Tenant/);
  expectPluginAcquired(env.PULUMI_HOME!);
});

it("Python: pip install pulumi-txmail==V by name, then a Tenant up and destroy with the plugin acquired, no node", async () => {
  const { home, env } = newUser("python", []);
  const interpreter = (await execFileAsync("python3", ["-c", "import sys; print(sys.executable)"])).stdout.trim();
  const venv = path.join(home, "venv");
  env.PATH = [path.join(venv, "bin"), registryCli()].join(path.delimiter);
  env.PIP_CONFIG_FILE = "/dev/null";
  env.PIP_INDEX_URL = `${servers.pypi.url}simple/`;
  env.PIP_CACHE_DIR = path.join(home, "pip-cache");
  env.PIP_DISABLE_PIP_VERSION_CHECK = "1";
  expect(resolvable("node", env.PATH)).toEqual([]);
  const program = path.join(home, "tenant.py");
  fs.copyFileSync(path.join(__dirname, "programs", "python", "tenant.py"), program);
  await time("python install", async () => {
    await run(interpreter, ["-m", "venv", venv], { cwd: home, env });
    await run(path.join(venv, "bin", "python"), ["-m", "pip", "install", "--quiet", `pulumi-txmail==${VERSION}`], {
      cwd: home,
      env,
    });
  });
  const site = (
    await run(
      path.join(venv, "bin", "python"),
      ["-c", "import pulumi_txmail, os; print(os.path.dirname(pulumi_txmail.__file__))"],
      { cwd: home, env },
    )
  ).trim();
  expect(JSON.parse(fs.readFileSync(path.join(site, "pulumi-plugin.json"), "utf8"))).toMatchObject({
    version: VERSION,
  });
  expectNewUser(env, [program, ...filesUnder(site)]);

  const out = await time("python up", () => run(path.join(venv, "bin", "python"), [program], { cwd: home, env }));
  await expectUpThenDestroy(out, env, {
    name: "rehearsal",
    website: "py.rehearsal.example.com",
    domain: "mail.py.rehearsal.example.com",
  });
});

it("Go: go get …/sdk/go@vV from a module proxy, then a Tenant up and destroy with the plugin acquired, no node", async () => {
  const { home, env } = newUser("go", []);
  const goBin = realDir(fs.realpathSync((await execFileAsync("sh", ["-c", "command -v go"])).stdout.trim()));
  env.PATH = [goBin, registryCli()].join(path.delimiter);
  Object.assign(env, {
    GOPATH: path.join(home, "go"),
    // A fresh module cache: every module comes from the loopback proxy. The build cache is shared
    // (content-addressed; -trimpath keeps its keys free of the module cache's location).
    GOMODCACHE: path.join(home, "go", "pkg", "mod"),
    GOCACHE: (await execFileAsync("go", ["env", "GOCACHE"])).stdout.trim(),
    GOPROXY: servers.goproxy.url,
    // The checksum database is on the network: off here. The SDK's module is private to this
    // rehearsal (GONOSUMDB); its dependencies' sums are compared with the checked-in go.sum below.
    GOSUMDB: "off",
    GONOSUMDB: "github.com/pulumi-txmail",
    GOFLAGS: "-mod=mod -trimpath",
    GOTOOLCHAIN: "local",
    CGO_ENABLED: "0",
  });
  expect(resolvable("node", env.PATH)).toEqual([]);
  const module = path.join(home, "program");
  fs.mkdirSync(module);
  fs.copyFileSync(path.join(__dirname, "programs", "go", "main.go"), path.join(module, "main.go"));
  const go = path.join(goBin, "go");
  await time("go install", async () => {
    await run(go, ["mod", "init", "example.com/rehearsal"], { cwd: module, env, timeoutMs: GO_TIMEOUT_MS });
    await run(go, ["get", `${release.go.module}@v${VERSION}`], { cwd: module, env, timeoutMs: GO_TIMEOUT_MS });
    await run(go, ["mod", "tidy"], { cwd: module, env, timeoutMs: GO_TIMEOUT_MS });
    await run(go, ["build", "-o", "program", "."], { cwd: module, env, timeoutMs: GO_TIMEOUT_MS });
  });
  // The dependencies' checksums are the ones the SDK's go.sum (checked against sum.golang.org) has.
  const known = new Map<string, string>(
    fs
      .readFileSync(path.join(REPO_ROOT, "sdk", "go", "go.sum"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => {
        const [mod, ver, sum] = l.split(" ");
        return [`${mod} ${ver}`, sum ?? ""];
      }),
  );
  const sums = fs.readFileSync(path.join(module, "go.sum"), "utf8").split("\n").filter(Boolean);
  const compared = sums.filter((l) => known.has(l.split(" ").slice(0, 2).join(" ")));
  expect(compared.length).toBeGreaterThan(50);
  for (const line of compared)
    expect(line).toBe(`${line.split(" ").slice(0, 2).join(" ")} ${known.get(line.split(" ").slice(0, 2).join(" "))}`);
  expect(requestsOfThisTest(servers.goproxy)).toContain(`/${release.go.module}/@v/v${VERSION}.zip`);
  const sdkDir = path.join(env.GOMODCACHE!, `${release.go.module}@v${VERSION}`);
  expectNewUser(env, [path.join(module, "main.go"), path.join(module, "go.mod"), ...filesUnder(sdkDir)]);

  const out = await time("go up", () => run(path.join(module, "program"), [], { cwd: module, env }));
  await expectUpThenDestroy(out, env, {
    name: "rehearsal",
    website: "go.rehearsal.example.com",
    domain: "mail.go.rehearsal.example.com",
  });
});

it("Java: a Maven project resolves the SDK by its coordinates from a Maven repository, then a Tenant up and destroy with the plugin acquired, no node", async () => {
  const { home, env } = newUser("java", []);
  const project = path.join(home, "project");
  fs.cpSync(path.join(__dirname, "programs", "java"), project, { recursive: true });
  // Every artifact, plugin and dependency comes from the loopback repository into a new local repository.
  const maven = mavenUser(home, servers.maven.url);
  const { groupId, artifactId } = release.maven;
  await time("java install", () =>
    run("mvn", [...maven.args, "package", `-Dtxmail.version=${VERSION}`], {
      cwd: project,
      env: { ...env, ...maven.env },
    }),
  );
  const jarPath = `/${groupId.replace(/\./g, "/")}/${artifactId}/${VERSION}/${artifactId}-${VERSION}.jar`;
  expect(requestsOfThisTest(servers.maven)).toContain(jarPath);
  const jar = path.join(project, "target", "lib", `${artifactId}-${VERSION}.jar`);
  const resources = [...readZip(jar)].filter(
    ([name]) => name.endsWith("/plugin.json") || name.endsWith("/version.txt"),
  );
  expect(
    Object.fromEntries(resources.map(([name, data]) => [path.basename(name), data.toString("utf8").trim()])),
  ).toEqual({
    "plugin.json": expect.stringContaining(`"version": "${VERSION}"`),
    "version.txt": VERSION,
  });
  expectNewUser({ ...env, ...maven.env }, [
    path.join(project, "pom.xml"),
    path.join(project, "Pulumi.yaml"),
    path.join(home, ".m2", "settings.xml"),
    jar,
  ]);

  // The engine's PATH: the CLI, pulumi-java's language host and the JDK's java (no Maven, no node).
  env.PATH = [
    registryCli(),
    realDir(path.join(TOOLS_DIR, "bin", "pulumi-language-java")),
    path.dirname(commandPath("java")),
  ].join(path.delimiter);
  expect(resolvable("node", env.PATH)).toEqual([]);
  const pulumi = registryPulumi();
  await newStack(pulumi, project, env, "dev");
  await expectTenantUpThenDestroy("java", pulumi, project, env);
});

it("YAML: a program naming the package at V, with the plugin acquired, no node", async () => {
  const { home, env } = newUser("yaml", []);
  env.PATH = [registryCli(), realDir(path.join(TOOLS_DIR, "bin", "pulumi-language-yaml"))].join(path.delimiter);
  expect(resolvable("node", env.PATH)).toEqual([]);
  const project = path.join(home, "project");
  fs.mkdirSync(project);
  fs.writeFileSync(
    path.join(project, "Pulumi.yaml"),
    `name: rehearsal-yaml
runtime: yaml
resources:
  rehearsal:
    type: txmail:index:Tenant
    properties:
      website: yaml.rehearsal.example.com
      domain:
        domain: mail.yaml.rehearsal.example.com
      bootstrapKey:
        ipAllowList: [127.0.0.1]
    options:
      version: ${VERSION}
      pluginDownloadURL: ${pluginDownloadURL}
`,
  );
  expectNewUser(env, filesUnder(project));
  const pulumi = registryPulumi();
  await newStack(pulumi, project, env, "dev");
  await expectTenantUpThenDestroy("yaml", pulumi, project, env);
});
