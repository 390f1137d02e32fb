// The Java SDK's coordinates as the release reads them from its pom (support/pom.ts) and writes them
// into release.json (support/releaseManifest.ts): the project's own elements, read as XML — not its
// parent's or a dependency's, whatever the indentation, comments or CDATA.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pomCoordinates } from "../../../support/pom";
import { releaseManifest } from "../../../support/releaseManifest";

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<!-- <groupId>not.this</groupId> -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
<parent><groupId>org.parent</groupId><artifactId>parent</artifactId><version>9</version></parent>
    <modelVersion>4.0.0</modelVersion>
        <groupId>io.github.pulumi-txmail</groupId>
  <artifactId><![CDATA[txmail]]></artifactId>
  <version>1.2.3</version>
  <description>R&amp;D &lt;tools&gt;</description>
  <dependencies>
    <dependency><groupId>com.pulumi</groupId><artifactId>pulumi</artifactId><version>1.20.0</version></dependency>
  </dependencies>
  <build/>
</project>
`;

it("reads the project's own groupId, artifactId and version, not its parent's or a dependency's", () => {
  expect(pomCoordinates(POM)).toEqual({ groupId: "io.github.pulumi-txmail", artifactId: "txmail", version: "1.2.3" });
});

it("reads the generated SDK's pom", () => {
  const pom = fs.readFileSync(path.join(__dirname, "..", "..", "..", "sdk", "java", "pom.xml"), "utf8");
  expect(pomCoordinates(pom)).toMatchObject({ groupId: "io.github.pulumi-txmail", artifactId: "txmail" });
});

it("refuses a pom that is not well-formed", () => {
  expect(() => pomCoordinates("<project><groupId>a</project>")).toThrow("not well-formed XML");
});

it("writes release.json's listing and the Java SDK's coordinates", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-manifest-"));
  for (const [folder, files] of Object.entries({
    npm: ["pulumi-txmail-1.2.3.tgz"],
    python: ["b.whl", "a.tar.gz"],
    plugin: ["p.tar.gz", "p.tar.gz.sha256"],
  })) {
    fs.mkdirSync(path.join(dir, folder));
    for (const f of files) fs.writeFileSync(path.join(dir, folder, f), "");
  }
  expect(releaseManifest(dir, "1.2.3", "example.com/sdk/go", POM)).toEqual({
    version: "1.2.3",
    go: { module: "example.com/sdk/go", tag: "sdk/go/v1.2.3", proxy: "go" },
    npm: ["npm/pulumi-txmail-1.2.3.tgz"],
    python: ["python/a.tar.gz", "python/b.whl"],
    maven: { groupId: "io.github.pulumi-txmail", artifactId: "txmail", version: "1.2.3", repository: "maven" },
    plugin: ["plugin/p.tar.gz"],
    schema: "schema.json",
  });
  fs.rmSync(dir, { recursive: true });
});
