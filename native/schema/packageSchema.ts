// The whole package schema, from the declarations: resources (provider/resources), the Tenant
// component, the data functions, the provider's configuration. Deterministic: the same sources give
// the same text, so a stale committed schema.json is a test failure (test/unit/native/schema.test.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../support/root";
import { nativeTypeToken } from "../../provider/api/typeTokens";
import { declarations } from "../../provider/resources";
import { CONFIG_VARIABLES } from "./common";
import { functionSchemas } from "./functions";
import type { PackageSpec } from "./pulumiSchema";
import { resourceSchema } from "./resource";
import { tenantSchema } from "./tenant";
import { PACKAGE } from "./tokens";
import { PLUGIN_DOWNLOAD_URL, REPOSITORY } from "../../sdk/nodejs/internal/plugin";
import { TypeRegistry } from "./typeRegistry";

/** Where the committed schema lives (the native provider serves this file). */
export const SCHEMA_FILE = path.join(REPO_ROOT, "native", "schema.json");

// The repository and the plugin's download URL are the SDK's (the TypeScript native face passes the
// URL with every resource): one place for both.
export { PLUGIN_DOWNLOAD_URL, REPOSITORY };

/** The Go SDK's module path (the package under the repository's `sdk/go`). */
export const GO_IMPORT_BASE_PATH = `${REPOSITORY.replace(/^https:\/\//, "")}/sdk/go/${PACKAGE}`;

/**
 * The Java SDK's base package: `com.<org>`, the repository's GitHub organization made a legal Java
 * name (JLS 6.1: `-` becomes `_`), so the classes are `com.pulumi_txmail.txmail.*` — the shape of
 * Pulumi's own providers (`com.pulumi.aws`) and Pulumiverse's (`com.pulumiverse.*`). It must start
 * with `com.`: the Java SDK finds a package's plugin.json only under `com/<namespace>/<name>/`
 * (com.pulumi.bootstrap.internal.PulumiPlugins), and that is how the engine learns, before the run,
 * which plugin a Java program needs. The groupId (io.github.<org>, Maven Central's namespace for a
 * GitHub organization) is derived by tools/javagen, which checks this.
 */
export const JAVA_BASE_PACKAGE = `com.${new URL(REPOSITORY).pathname.split("/")[1]!.toLowerCase().replace(/-/g, "_")}`;

/**
 * The Java SDK (com.pulumi:pulumi) the generated SDK compiles and runs against: the newest release on
 * Maven Central not newer than the generator (pulumi-java v1.22.0, tools/javagen/go.mod), whose own
 * release of the SDK is not on Maven Central. gson is pinned to the version that SDK itself depends
 * on: Maven takes a direct dependency's version over a transitive one, and the generator's default
 * (2.8.9) would downgrade it.
 */
export const JAVA_DEPENDENCIES = { "com.pulumi:pulumi": "1.20.0", "com.google.code.gson:gson": "2.10" };

export function packageSchema(): PackageSpec {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    description: string;
    license: string;
  };
  const registry = new TypeRegistry();
  const resources = Object.fromEntries(
    Object.values(declarations)
      .sort((a, b) => a.kind.localeCompare(b.kind))
      .map((declaration) => [nativeTypeToken(declaration.kind), resourceSchema(declaration, registry)]),
  );
  resources[nativeTypeToken("Tenant")] = tenantSchema(registry);
  return {
    name: PACKAGE,
    displayName: "txmail",
    version: manifest.version,
    description: manifest.description,
    keywords: ["pulumi", PACKAGE, "email", "transactional-email", "category/utility", "kind/native"],
    homepage: REPOSITORY,
    license: manifest.license,
    repository: REPOSITORY,
    publisher: "pulumi-txmail",
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    config: { variables: CONFIG_VARIABLES },
    provider: {
      description:
        "The txmail provider. Declare one explicitly (`pulumi:providers:txmail`) for each account a stack manages.",
      inputProperties: CONFIG_VARIABLES,
      properties: CONFIG_VARIABLES,
    },
    resources,
    functions: functionSchemas(registry),
    types: registry.types(),
    language: {
      // The TypeScript `pulumi import` prints (and `pulumi convert`) imports the package users install.
      nodejs: { packageName: manifest.name },
      go: {
        importBasePath: GO_IMPORT_BASE_PATH,
        // The Tenant's maps of resources (routes, webhooks, …) need the container types to compile.
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
      python: {
        packageName: `pulumi_${PACKAGE}`,
        // Current Pulumi Python SDKs need 3.10 or later.
        pythonRequires: ">=3.10",
        requires: { pulumi: ">=3.0.0,<4.0.0" },
        respectSchemaVersion: true,
        pyproject: { enabled: true },
      },
      java: { basePackage: JAVA_BASE_PACKAGE, dependencies: JAVA_DEPENDENCIES },
    },
  };
}

/** The schema as committed: two-space JSON with a final newline. */
export function schemaText(): string {
  return `${JSON.stringify(packageSchema(), null, 2)}\n`;
}
