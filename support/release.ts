// The artifacts of one release (scripts/release.sh) checked against each other: every one carries the
// same version and the same schema, so what a user installs by name in any language asks for the
// plugin release that matches it. scripts/release.sh runs this before it keeps a release;
// test/unit/scripts/release.test.ts breaks each artifact in turn; the release rehearsal
// (test/e2e/release) reads release.json to publish and install.
//
//   node dist/support/release.js DIR     # exit 1 with one line per disagreement
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { pomCoordinates } from "./pom";

/** release.json: what scripts/release.sh wrote where, relative to the release directory. */
export interface ReleaseManifest {
  version: string;
  go: { module: string; tag: string; proxy: string };
  npm: string[];
  python: string[];
  /** The Java SDK's coordinates; `repository` is the folder holding it in a Maven repository's layout. */
  maven: { groupId: string; artifactId: string; version: string; repository: string };
  plugin: string[];
  schema: string;
}

export function readManifest(dir: string): ReleaseManifest {
  return JSON.parse(fs.readFileSync(path.join(dir, "release.json"), "utf8")) as ReleaseManifest;
}

/** The entries of a zip archive (a wheel, a Go module zip), by name: enough of the format for these. */
export function readZip(file: string): Map<string, Buffer> {
  const zip = fs.readFileSync(file);
  // The end-of-central-directory record: the last 22 bytes unless the archive carries a comment.
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error(`${file} is not a zip archive`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: bad central directory`);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    if (method !== 0 && method !== 8) throw new Error(`${file}: ${name} uses compression method ${method}`);
    if (!name.endsWith("/")) entries.set(name, method === 8 ? zlib.inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** One file of a .tgz/.tar.gz, as text (tar reads it). */
function fromTarball(tarball: string, member: string): string {
  return execFileSync("tar", ["-xzOf", tarball, member], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

/** The names in a .tar.gz. */
function tarballNames(tarball: string): string[] {
  return execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean);
}

/** Pulumi's plugin metadata (pulumi-plugin.json) as the SDKs carry it. */
interface PluginJson {
  resource?: boolean;
  name?: string;
  version?: string;
  server?: string;
}

/**
 * Every disagreement among the artifacts in `dir` (empty: they agree). Each line names the artifact
 * and what it says against what the release says.
 */
export function releaseProblems(dir: string): string[] {
  const problems: string[] = [];
  const release = readManifest(dir);
  const { version } = release;
  const expect = (what: string, actual: unknown, wanted: unknown) => {
    if (actual !== wanted) problems.push(`${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(wanted)}`);
  };
  const schemaText = fs.readFileSync(path.join(dir, release.schema), "utf8");
  const schema = JSON.parse(schemaText) as { name: string; version: string; pluginDownloadURL: string };
  expect("schema.json version", schema.version, version);
  /** What each SDK's pulumi-plugin.json must say: the schema's plugin, this version, its server. */
  const checkPluginJson = (what: string, text: string | undefined) => {
    if (text === undefined) return void problems.push(`${what}: missing`);
    const json = JSON.parse(text) as PluginJson;
    expect(`${what} name`, json.name, schema.name);
    expect(`${what} version`, json.version, version);
    expect(`${what} server`, json.server, schema.pluginDownloadURL);
  };

  // npm: the package's version, its policy pack's, and the schema the plugin script serves.
  const tgz = release.npm.filter((f) => f.endsWith(".tgz"));
  expect("npm tarballs", tgz.length, 1);
  for (const file of tgz) {
    const tarball = path.join(dir, file);
    const pkg = JSON.parse(fromTarball(tarball, "package/package.json")) as { name: string; version: string };
    expect(`${file} package.json version`, pkg.version, version);
    expect(`${file} name`, path.basename(file), `${pkg.name}-${version}.tgz`);
    const policy = JSON.parse(fromTarball(tarball, "package/policy/package.json")) as { version: string };
    expect(`${file} policy/package.json version`, policy.version, version);
    if (fromTarball(tarball, "package/native/schema.json") !== schemaText)
      problems.push(`${file} native/schema.json differs from schema.json`);
  }

  // Python: the wheel's and the sdist's metadata, the wheel's pulumi-plugin.json.
  const wheels = release.python.filter((f) => f.endsWith(".whl"));
  const sdists = release.python.filter((f) => f.endsWith(".tar.gz"));
  expect("Python wheels", wheels.length, 1);
  expect("Python sdists", sdists.length, 1);
  for (const file of wheels) {
    const entries = readZip(path.join(dir, file));
    expect(`${file} file name version`, path.basename(file).split("-")[1], version);
    const metadata = [...entries].find(([name]) => name.endsWith(".dist-info/METADATA"))?.[1].toString("utf8") ?? "";
    expect(`${file} METADATA Version`, /^Version: (.*)$/m.exec(metadata)?.[1], version);
    const pluginJson = [...entries].find(([name]) => name.endsWith("/pulumi-plugin.json"))?.[1].toString("utf8");
    checkPluginJson(`${file} pulumi-plugin.json`, pluginJson);
  }
  for (const file of sdists) {
    const tarball = path.join(dir, file);
    const top = path.basename(file, ".tar.gz");
    expect(`${file} file name version`, top.split("-")[1], version);
    const pkgInfo = fromTarball(tarball, `${top}/PKG-INFO`);
    expect(`${file} PKG-INFO Version`, /^Version: (.*)$/m.exec(pkgInfo)?.[1], version);
    const pluginJson = tarballNames(tarball).find((n) => n.endsWith("/pulumi-plugin.json"));
    checkPluginJson(`${file} pulumi-plugin.json`, pluginJson && fromTarball(tarball, pluginJson));
  }

  // Go: the proxy's files for v<version> of the module, and the module's own pulumi-plugin.json.
  const goVersion = `v${version}`;
  expect("Go tag", release.go.tag, `sdk/go/${goVersion}`);
  const versions = path.join(dir, release.go.proxy, ...release.go.module.split("/"), "@v");
  const listed = fs.existsSync(path.join(versions, "list"))
    ? fs.readFileSync(path.join(versions, "list"), "utf8").split("\n").filter(Boolean)
    : [];
  if (!listed.includes(goVersion)) problems.push(`Go proxy list ${JSON.stringify(listed)} lacks ${goVersion}`);
  const info = path.join(versions, `${goVersion}.info`);
  expect(
    "Go .info Version",
    fs.existsSync(info) ? (JSON.parse(fs.readFileSync(info, "utf8")) as { Version: string }).Version : undefined,
    goVersion,
  );
  const zipFile = path.join(versions, `${goVersion}.zip`);
  if (!fs.existsSync(zipFile)) problems.push(`Go module zip ${goVersion}.zip: missing`);
  else {
    const entries = readZip(zipFile);
    const prefix = `${release.go.module}@${goVersion}/`;
    const outside = [...entries.keys()].filter((name) => !name.startsWith(prefix));
    if (outside.length) problems.push(`Go module zip: ${outside.length} files outside ${prefix}`);
    const goMod = entries.get(`${prefix}go.mod`)?.toString("utf8");
    expect("Go module zip go.mod module", /^module\s+(\S+)/m.exec(goMod ?? "")?.[1], release.go.module);
    const mod = path.join(versions, `${goVersion}.mod`);
    if (!fs.existsSync(mod) || fs.readFileSync(mod, "utf8") !== goMod)
      problems.push(`Go ${goVersion}.mod differs from the zip's go.mod`);
    const pluginJson = [...entries].find(([name]) => name.endsWith("/pulumi-plugin.json"))?.[1].toString("utf8");
    checkPluginJson("Go module pulumi-plugin.json", pluginJson);
    // The version the Go SDK asks the engine for (its resource options' default).
    const utilities = [...entries].find(([name]) => name.endsWith("/internal/pulumiUtilities.go"))?.[1].toString();
    const stamped = [...(utilities ?? "").matchAll(/semver\.MustParse\("([^"]*)"\)/g)].map((m) => m[1]);
    if (!stamped.length || stamped.some((v) => v !== version))
      problems.push(`Go module internal/pulumiUtilities.go versions ${JSON.stringify(stamped)}, expected ${version}`);
  }

  problems.push(...mavenProblems(dir, release, checkPluginJson));

  // Plugins: named for this version, each with its checksum, holding the executable.
  if (!release.plugin.length) problems.push("no plugin tarballs");
  for (const file of release.plugin) {
    const name = path.basename(file);
    const m = /^pulumi-resource-(.+)-v(.+)-(\w+)-(\w+)\.tar\.gz$/.exec(name);
    expect(`${file} plugin name`, m?.[1], schema.name);
    expect(`${file} version`, m?.[2], version);
    const tarball = path.join(dir, file);
    const digest = createHash("sha256").update(fs.readFileSync(tarball)).digest("hex");
    const sums = fs.existsSync(`${tarball}.sha256`) ? fs.readFileSync(`${tarball}.sha256`, "utf8") : "";
    expect(`${file}.sha256`, sums, `${digest}  ${name}\n`);
    const exe = `pulumi-resource-${schema.name}${m?.[3] === "windows" ? ".exe" : ""}`;
    if (!tarballNames(tarball).includes(exe)) problems.push(`${file} does not hold ${exe}`);
  }
  return problems;
}

/** The files Maven Central requires of a release beside the pom: the jar, its sources and its javadoc. */
const MAVEN_CLASSIFIERS = ["", "-sources", "-javadoc"];

/**
 * The Java SDK in the Maven repository folder: the coordinates and version the release names, the pom
 * saying the same, the jar's plugin.json (the plugin the SDK asks the engine for) and version.txt, and
 * each file's .md5 and .sha1 matching it.
 */
function mavenProblems(
  dir: string,
  release: ReleaseManifest,
  checkPluginJson: (what: string, text: string | undefined) => void,
): string[] {
  const problems: string[] = [];
  const { maven, version } = release;
  if (!maven) return ["release.json names no Maven artifacts"];
  if (maven.version !== version) problems.push(`Maven version ${JSON.stringify(maven.version)}, expected ${version}`);
  const folder = path.join(dir, maven.repository, ...maven.groupId.split("."), maven.artifactId, version);
  const base = path.join(folder, `${maven.artifactId}-${version}`);
  const pomFile = `${base}.pom`;
  if (!fs.existsSync(pomFile)) return [...problems, `Maven ${path.relative(dir, pomFile)}: missing`];
  const pomName = path.relative(dir, pomFile);
  let own: ReturnType<typeof pomCoordinates>;
  try {
    own = pomCoordinates(fs.readFileSync(pomFile, "utf8"));
  } catch (e) {
    return [...problems, `${pomName}: ${(e as Error).message}`];
  }
  for (const [element, wanted] of [
    ["groupId", maven.groupId],
    ["artifactId", maven.artifactId],
    ["version", version],
  ] as const)
    if (own[element] !== wanted)
      problems.push(`${pomName} ${element}: ${JSON.stringify(own[element])}, expected ${JSON.stringify(wanted)}`);
  const files = [...MAVEN_CLASSIFIERS.map((c) => `${base}${c}.jar`), pomFile];
  for (const file of files) {
    const name = path.relative(dir, file);
    if (!fs.existsSync(file)) {
      problems.push(`Maven ${name}: missing`);
      continue;
    }
    const bytes = fs.readFileSync(file);
    for (const algorithm of ["md5", "sha1"]) {
      const sum = fs.existsSync(`${file}.${algorithm}`) ? fs.readFileSync(`${file}.${algorithm}`, "utf8").trim() : "";
      const digest = createHash(algorithm).update(bytes).digest("hex");
      // Maven writes the bare digest; some tools append the file's name.
      if (sum.split(/\s+/)[0] !== digest)
        problems.push(`${name}.${algorithm}: ${JSON.stringify(sum)}, expected ${digest}`);
    }
  }
  const jar = `${base}.jar`;
  if (fs.existsSync(jar)) {
    const entries = readZip(jar);
    const jarName = path.relative(dir, jar);
    const find = (suffix: string) => [...entries].find(([name]) => name.endsWith(suffix))?.[1].toString("utf8");
    checkPluginJson(`${jarName} plugin.json`, find("/plugin.json"));
    const versionTxt = find("/version.txt")?.trim();
    if (versionTxt !== version)
      problems.push(`${jarName} version.txt: ${JSON.stringify(versionTxt)}, expected ${JSON.stringify(version)}`);
  }
  return problems;
}

if (require.main === module) {
  const [dir] = process.argv.slice(2);
  if (!dir) {
    console.error("usage: node dist/support/release.js <release dir>");
    process.exit(2);
  }
  const problems = releaseProblems(dir);
  for (const p of problems) console.error(`[release] ${p}`);
  process.exit(problems.length ? 1 : 0);
}
