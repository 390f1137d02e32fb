// The package schema is what Pulumi's code generators (Go, Python, …) will read: the language
// blocks must hold what the generators need. Checked on the schema the declarations generate
// (schema.test.ts keeps the committed file equal to it).
import * as fs from "node:fs";
import * as path from "node:path";
import { GO_IMPORT_BASE_PATH, REPO_ROOT, REPOSITORY, packageSchema } from "../../../native/schema/packageSchema";

describe("the package schema, for SDKs in every language", () => {
  const schema = packageSchema();

  test("has the language blocks Pulumi's Node.js, Go and Python generators need", () => {
    expect(schema.language).toEqual({
      nodejs: { packageName: "pulumi-txmail" },
      go: {
        importBasePath: "github.com/pulumi-txmail/pulumi-txmail/sdk/go/txmail",
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
      python: {
        packageName: "pulumi_txmail",
        pythonRequires: ">=3.10",
        requires: { pulumi: ">=3.0.0,<4.0.0" },
        respectSchemaVersion: true,
        pyproject: { enabled: true },
      },
    });
    expect(GO_IMPORT_BASE_PATH).toBe(schema.language.go.importBasePath);
  });

  test("says where the package comes from; name, version, license and description are package.json's", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as Record<
      string,
      string
    >;
    expect(schema).toMatchObject({
      name: "txmail",
      displayName: "txmail",
      version: manifest.version,
      description: manifest.description,
      license: manifest.license,
      repository: "https://github.com/pulumi-txmail/pulumi-txmail",
      homepage: REPOSITORY,
      publisher: "pulumi-txmail",
      keywords: ["pulumi", "txmail", "email", "transactional-email", "category/utility", "kind/native"],
    });
    expect(schema.language.nodejs.packageName).toBe(manifest.name);
    expect(REPOSITORY).toBe(schema.repository);
  });
});
