// The package schema is what Pulumi's code generators (Go, Python, …) will read: every property,
// enum type and enum value needs a description (each becomes a doc comment of the generated SDKs),
// enum values need names that read well in every language, and the language blocks must hold what
// the generators need. Checked on the schema the declarations generate (schema.test.ts keeps the
// committed file equal to it).
import * as fs from "node:fs";
import * as path from "node:path";
import { GO_IMPORT_BASE_PATH, REPOSITORY, packageSchema } from "../../../native/schema/packageSchema";
import { REPO_ROOT } from "../../../support/root";
import type { PackageSpec, PropertySpec } from "../../../native/schema/pulumiSchema";

/** The path of everything a generated SDK documents that has no description. */
function undescribed(schema: PackageSpec): string[] {
  const missing: string[] = [];
  const need = (where: string, thing: { description?: string }) => {
    if (!thing.description?.trim()) missing.push(where);
  };
  const properties = (where: string, props: Record<string, PropertySpec>) => {
    for (const [name, p] of Object.entries(props)) need(`${where}.${name}`, p);
  };
  properties("config", schema.config.variables);
  need("provider", schema.provider);
  properties("provider.inputProperties", schema.provider.inputProperties);
  properties("provider.properties", schema.provider.properties);
  for (const [token, r] of Object.entries(schema.resources)) {
    need(token, r);
    properties(`${token}.inputProperties`, r.inputProperties);
    properties(`${token}.properties`, r.properties);
  }
  for (const [token, f] of Object.entries(schema.functions)) {
    need(token, f);
    properties(`${token}.inputs`, f.inputs.properties);
    properties(`${token}.outputs`, f.outputs.properties);
  }
  for (const [token, t] of Object.entries(schema.types)) {
    need(token, t);
    if ("enum" in t) t.enum.forEach((v) => need(`${token}.enum[${JSON.stringify(v.value)}]`, v));
    else properties(`${token}.properties`, t.properties);
  }
  return missing;
}

/** Python's keywords (Pulumi's Python generator appends `_` to a name that is one). */
const PYTHON_KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except exec finally for " +
    "from global if import in is lambda nonlocal not or pass print raise return try while with yield"
  ).split(" "),
);
/** An enum value's name as Python code spells it before upper-casing: `GlobalScope` → `global_scope`. */
const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

describe("the package schema, for SDKs in every language", () => {
  const schema = packageSchema();

  test("describes every property, resource, function, type, enum and enum value", () => {
    const missing = undescribed(schema);
    if (missing.length > 0) {
      throw new Error(
        `${missing.length} without a description (write it where the field is declared: .describe() in ` +
          `provider/resources or provider/api, or in native/schema where the generator makes it):\n  ` +
          missing.join("\n  "),
      );
    }
  });

  test("names every enum value, in words no language has to escape", () => {
    const names = Object.entries(schema.types).flatMap(([token, t]) =>
      "enum" in t ? t.enum.map((v) => ({ at: `${token}.${String(v.value)}`, name: v.name ?? "" })) : [],
    );
    expect(names.length).toBeGreaterThan(0);
    const bad = names.filter(({ name }) => !/^[A-Z][A-Za-z0-9]*$/.test(name) || PYTHON_KEYWORDS.has(snake(name)));
    expect(bad).toEqual([]);
    expect(names).toContainEqual({ at: "txmail:index:Scope.global", name: "GlobalScope" });
  });

  test("has the language blocks Pulumi's Node.js, Go, Python and Java generators need", () => {
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
      // The base package from the repository's GitHub organization (com.<org>: the Java SDK finds
      // plugin.json only under com/);
      // the Java SDK the generated code is compiled and run against (test/e2e/java).
      java: {
        basePackage: "com.pulumi_txmail",
        dependencies: { "com.pulumi:pulumi": "1.20.0", "com.google.code.gson:gson": "2.10" },
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
