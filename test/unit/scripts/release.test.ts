// scripts/release.sh: it refuses a tree with uncommitted changes, and its closing check
// (support/release.ts) fails when any artifact disagrees with the others on the version or the
// schema. Each artifact is made here small but in its real format (npm tarball, wheel and sdist, the
// Go module proxy's files and module zip, the Maven repository's jars, pom and checksums, plugin
// tarball and checksum), consistent first, then with one fact changed at a time. The real artifacts pass the same check at the end of every release and
// in the release rehearsal (test/e2e/release).
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../../support/root";
import { releaseProblems } from "../../../support/release";

const VERSION = "1.2.3";
const MODULE = "github.com/pulumi-txmail/pulumi-txmail/sdk/go";
const SERVER = "github://api.github.com/pulumi-txmail/pulumi-txmail";

/** What each artifact says; a consistent release says VERSION everywhere. */
interface Facts {
  schemaVersion: string;
  npmVersion: string;
  npmSchemaVersion: string;
  policyVersion: string;
  wheelPluginVersion: string;
  wheelPluginServer: string;
  wheelMetadataVersion: string;
  sdistVersion: string;
  goPluginVersion: string;
  goUtilitiesVersion: string;
  goListed: string;
  goModModule: string;
  mavenPomVersion: string;
  mavenPluginVersion: string;
  mavenVersionTxt: string;
  mavenChecksum: "right" | "wrong";
  pluginFileVersion: string;
  pluginChecksum: "right" | "wrong";
}
const consistent: Facts = {
  schemaVersion: VERSION,
  npmVersion: VERSION,
  npmSchemaVersion: VERSION,
  policyVersion: VERSION,
  wheelPluginVersion: VERSION,
  wheelPluginServer: SERVER,
  wheelMetadataVersion: VERSION,
  sdistVersion: VERSION,
  goPluginVersion: VERSION,
  goUtilitiesVersion: VERSION,
  goListed: `v${VERSION}`,
  goModModule: MODULE,
  mavenPomVersion: VERSION,
  mavenPluginVersion: VERSION,
  mavenVersionTxt: VERSION,
  mavenChecksum: "right",
  pluginFileVersion: VERSION,
  pluginChecksum: "right",
};

const schema = (version: string) =>
  JSON.stringify({ name: "txmail", version, pluginDownloadURL: SERVER, resources: {} }, null, 2) + "\n";
const pluginJson = (version: string, server = SERVER) =>
  JSON.stringify({ resource: true, name: "txmail", version, server });

/** Writes `files` (path → text) under `dir`. */
function write(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

/** A zip of `files` (deflated, as wheels and Go module zips are), by Python's zipfile. */
function zip(file: string, files: Record<string, string>): void {
  const src = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-zip-"));
  write(src, files);
  const tops = [...new Set(Object.keys(files).map((f) => f.split("/")[0]!))];
  execFileSync("python3", ["-m", "zipfile", "-c", file, ...tops], { cwd: src });
  fs.rmSync(src, { recursive: true, force: true });
}

/** A .tar.gz of `files`. */
function tarball(file: string, files: Record<string, string>): void {
  const src = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-tar-"));
  write(src, files);
  execFileSync("tar", ["-czf", file, "-C", src, ...Object.keys(files)]);
  fs.rmSync(src, { recursive: true, force: true });
}

/** A release directory as scripts/release.sh lays it out, each artifact saying what `facts` say. */
function fakeRelease(facts: Facts): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-release-unit-"));
  for (const sub of ["npm", "python", "go", "plugin"]) fs.mkdirSync(path.join(dir, sub));
  fs.writeFileSync(path.join(dir, "schema.json"), schema(facts.schemaVersion));
  const npm = `npm/pulumi-txmail-${VERSION}.tgz`;
  tarball(path.join(dir, npm), {
    "package/package.json": JSON.stringify({ name: "pulumi-txmail", version: facts.npmVersion }),
    "package/policy/package.json": JSON.stringify({ name: "txmail-policy", version: facts.policyVersion }),
    "package/native/schema.json": schema(facts.npmSchemaVersion),
  });
  const wheel = `python/pulumi_txmail-${VERSION}-py3-none-any.whl`;
  zip(path.join(dir, wheel), {
    "pulumi_txmail/__init__.py": "",
    "pulumi_txmail/pulumi-plugin.json": pluginJson(facts.wheelPluginVersion, facts.wheelPluginServer),
    [`pulumi_txmail-${VERSION}.dist-info/METADATA`]: `Metadata-Version: 2.4\nName: pulumi_txmail\nVersion: ${facts.wheelMetadataVersion}\n`,
  });
  const sdist = `python/pulumi_txmail-${VERSION}.tar.gz`;
  tarball(path.join(dir, sdist), {
    [`pulumi_txmail-${VERSION}/PKG-INFO`]: `Metadata-Version: 2.4\nName: pulumi_txmail\nVersion: ${facts.sdistVersion}\n`,
    [`pulumi_txmail-${VERSION}/pulumi_txmail/pulumi-plugin.json`]: pluginJson(VERSION),
  });
  const versions = path.join(dir, "go", ...MODULE.split("/"), "@v");
  const goMod = `module ${facts.goModModule}\n\ngo 1.26\n`;
  const inZip = `${MODULE}@v${VERSION}`;
  write(versions, {
    list: `${facts.goListed}\n`,
    [`v${VERSION}.info`]: JSON.stringify({ Version: `v${VERSION}`, Time: "2026-01-01T00:00:00Z" }),
    [`v${VERSION}.mod`]: goMod,
  });
  zip(path.join(versions, `v${VERSION}.zip`), {
    [`${inZip}/go.mod`]: goMod,
    [`${inZip}/txmail/pulumi-plugin.json`]: pluginJson(facts.goPluginVersion),
    [`${inZip}/txmail/internal/pulumiUtilities.go`]: `version := semver.MustParse("${facts.goUtilitiesVersion}")\n`,
  });
  // Maven: what `mvn deploy` writes for io.github.pulumi-txmail:txmail (the jar's resources as the SDK has them).
  const mavenDir = path.join(dir, "maven", "io", "github", "pulumi-txmail", "txmail", VERSION);
  fs.mkdirSync(mavenDir, { recursive: true });
  const mavenBase = path.join(mavenDir, `txmail-${VERSION}`);
  const resources = "com/pulumi_txmail/txmail";
  zip(`${mavenBase}.jar`, {
    [`${resources}/plugin.json`]: pluginJson(facts.mavenPluginVersion),
    [`${resources}/version.txt`]: `${facts.mavenVersionTxt}\n`,
  });
  zip(`${mavenBase}-sources.jar`, { "com/pulumi_txmail/txmail/Tenant.java": "" });
  zip(`${mavenBase}-javadoc.jar`, { "index.html": "" });
  fs.writeFileSync(
    `${mavenBase}.pom`,
    `<project>\n  <groupId>io.github.pulumi-txmail</groupId>\n  <artifactId>txmail</artifactId>\n  <version>${facts.mavenPomVersion}</version>\n</project>\n`,
  );
  for (const file of ["", "-sources", "-javadoc"].map((c) => `${mavenBase}${c}.jar`).concat(`${mavenBase}.pom`))
    for (const algorithm of ["md5", "sha1"]) {
      const bytes = facts.mavenChecksum === "right" || !file.endsWith("-sources.jar") ? fs.readFileSync(file) : "other";
      fs.writeFileSync(`${file}.${algorithm}`, createHash(algorithm).update(bytes).digest("hex"));
    }
  const plugin = `plugin/pulumi-resource-txmail-v${facts.pluginFileVersion}-linux-amd64.tar.gz`;
  tarball(path.join(dir, plugin), { "pulumi-resource-txmail": "\x7fELF" });
  const digest = createHash("sha256")
    .update(facts.pluginChecksum === "right" ? fs.readFileSync(path.join(dir, plugin)) : "other")
    .digest("hex");
  fs.writeFileSync(path.join(dir, `${plugin}.sha256`), `${digest}  ${path.basename(plugin)}\n`);
  const manifest = {
    version: VERSION,
    go: { module: MODULE, tag: `sdk/go/v${VERSION}`, proxy: "go" },
    npm: [npm],
    python: [wheel, sdist],
    maven: { groupId: "io.github.pulumi-txmail", artifactId: "txmail", version: VERSION, repository: "maven" },
    plugin: [plugin],
    schema: "schema.json",
  };
  fs.writeFileSync(path.join(dir, "release.json"), JSON.stringify(manifest));
  return dir;
}

const dirs: string[] = [];
const problemsOf = (facts: Facts) => {
  const dir = fakeRelease(facts);
  dirs.push(dir);
  return releaseProblems(dir);
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

it("finds nothing wrong with a release whose artifacts agree", () => {
  expect(problemsOf(consistent)).toEqual([]);
});

it.each<[keyof Facts, string, RegExp]>([
  ["schemaVersion", "1.2.4", /^schema\.json version/],
  ["npmVersion", "1.2.4", /pulumi-txmail-1\.2\.3\.tgz package\.json version: "1\.2\.4"/],
  ["npmSchemaVersion", "1.2.4", /tgz native\/schema\.json differs from schema\.json/],
  ["policyVersion", "0.1.0", /tgz policy\/package\.json version/],
  ["wheelPluginVersion", "0.1.0", /\.whl pulumi-plugin\.json version: "0\.1\.0", expected "1\.2\.3"/],
  ["wheelPluginServer", "github://api.github.com/someone/else", /\.whl pulumi-plugin\.json server/],
  ["wheelMetadataVersion", "1.2.4", /\.whl METADATA Version/],
  ["sdistVersion", "1.2.4", /\.tar\.gz PKG-INFO Version/],
  ["goPluginVersion", "0.1.0", /^Go module pulumi-plugin\.json version/],
  ["goUtilitiesVersion", "0.1.0", /^Go module internal\/pulumiUtilities\.go versions \["0\.1\.0"\]/],
  ["goListed", "v0.1.0", /^Go proxy list \["v0\.1\.0"\] lacks v1\.2\.3/],
  ["goModModule", "example.com/elsewhere", /^Go module zip go\.mod module/],
  ["mavenPomVersion", "0.1.0", /txmail-1\.2\.3\.pom version: "0\.1\.0", expected "1\.2\.3"/],
  ["mavenPluginVersion", "0.1.0", /txmail-1\.2\.3\.jar plugin\.json version: "0\.1\.0"/],
  ["mavenVersionTxt", "0.1.0", /txmail-1\.2\.3\.jar version\.txt: "0\.1\.0"/],
  ["mavenChecksum", "wrong", /txmail-1\.2\.3-sources\.jar\.md5: /],
  ["pluginFileVersion", "0.1.0", /linux-amd64\.tar\.gz version: "0\.1\.0"/],
  ["pluginChecksum", "wrong", /\.tar\.gz\.sha256/],
])("reports %s = %s", (fact, value, problem) => {
  const problems = problemsOf({ ...consistent, [fact]: value });
  expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
});

/**
 * A copy of release.sh in a bare git tree of its own, committed: what every case below runs, so that
 * none can touch the checkout (a real release.sh run there would build a release). Its tree has no
 * tools (.tools/, Go), so a clean run stops at the first check after the tree's.
 */
function bareTree(): { release: (...args: string[]) => ReturnType<typeof spawnSync>; tree: string } {
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-release-bare-"));
  dirs.push(tree);
  fs.mkdirSync(path.join(tree, "scripts"));
  fs.copyFileSync(path.join(REPO_ROOT, "scripts", "release.sh"), path.join(tree, "scripts", "release.sh"));
  fs.writeFileSync(path.join(tree, "package.json"), JSON.stringify({ version: "1.2.3" }, null, 2) + "\n");
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: tree });
  git("init", "-q");
  git("add", ".");
  git("commit", "-q", "-m", "release script");
  return {
    tree,
    release: (...args) =>
      spawnSync("bash", [path.join(tree, "scripts", "release.sh"), ...args], { cwd: tree, encoding: "utf8" }),
  };
}

it("refuses a tree with uncommitted changes, naming them", () => {
  const { tree, release } = bareTree();
  // Clean: past the tree's check, to the next one (this bare tree has no Python venv).
  const clean = release("1.2.3");
  expect(clean.status).not.toBe(0);
  expect(String(clean.stderr)).toMatch(/no Python venv: run 'bash scripts\/setup\.sh --with sdkgen' first/);
  expect(String(clean.stderr)).not.toMatch(/not committed/);
  fs.writeFileSync(path.join(tree, "stray.txt"), "");
  const dirty = release("1.2.3");
  expect(dirty.status).not.toBe(0);
  expect(String(dirty.stderr)).toMatch(/the tree has changes that are not committed/);
  expect(String(dirty.stderr)).toMatch(/\?\? stray\.txt/);
});

it("refuses a commit whose package.json says another version, at once, saying what to do", () => {
  const { release } = bareTree();
  const other = release("1.2.4");
  expect(other.status).not.toBe(0);
  expect(String(other.stderr)).toMatch(/package\.json of this commit says version '1\.2\.3', not 1\.2\.4/);
  expect(String(other.stderr)).toContain("bash scripts/set-version.sh 1.2.4 && npm run gen:sdks");
  // The version it says passes (and stops later, at the missing venv).
  expect(String(release("1.2.3").stderr)).toMatch(/no Python venv/);
});

it("takes only plain X.Y.Z versions", () => {
  const { release } = bareTree();
  for (const bad of ["v1.2.3", "1.2", "1.2.3-rc.1", "01.2.3"])
    expect(String(release(bad).stderr)).toMatch(/is not a version like 1\.2\.3/);
  // A good one passes the version check (and stops later, at the missing venv).
  expect(String(release("1.2.3").stderr)).not.toMatch(/is not a version/);
});
