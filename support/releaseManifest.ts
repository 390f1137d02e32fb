// release.json, what a release holds and where (support/release.ts's ReleaseManifest): written by
// scripts/release.sh once every artifact is in its directory, before the artifacts are checked
// against each other. The Java SDK is named by its pom's own coordinates.
//
//   node dist/support/releaseManifest.js DIR VERSION GO_MODULE POM
import * as fs from "node:fs";
import * as path from "node:path";
import { pomCoordinates } from "./pom";
import type { ReleaseManifest } from "./release";

/** What the release in `dir` holds (its npm/, python/, plugin/ folders as they are now). */
export function releaseManifest(dir: string, version: string, goModule: string, pom: string): ReleaseManifest {
  const files = (folder: string) =>
    fs
      .readdirSync(path.join(dir, folder))
      .sort()
      .map((f) => `${folder}/${f}`);
  const { groupId, artifactId } = pomCoordinates(pom);
  if (!groupId || !artifactId) throw new Error("the Java SDK's pom names no groupId or artifactId of its own");
  return {
    version,
    go: { module: goModule, tag: `sdk/go/v${version}`, proxy: "go" },
    npm: files("npm"),
    python: files("python"),
    maven: { groupId, artifactId, version, repository: "maven" },
    plugin: files("plugin").filter((f) => f.endsWith(".tar.gz")),
    schema: "schema.json",
  };
}

if (require.main === module) {
  const [dir, version, goModule, pomFile] = process.argv.slice(2);
  if (!dir || !version || !goModule || !pomFile) {
    process.stderr.write("usage: node dist/support/releaseManifest.js DIR VERSION GO_MODULE POM\n");
    process.exit(2);
  }
  const manifest = releaseManifest(dir, version, goModule, fs.readFileSync(pomFile, "utf8"));
  fs.writeFileSync(path.join(dir, "release.json"), JSON.stringify(manifest, null, 2) + "\n");
}
