// The package schema the provider serves (GetSchema) and its version (GetPluginInfo).
//
// The schema is generated from the declarations into native/schema.json (never edited by hand).
// Until that file exists, a minimal one names the package, its configuration and the kinds, which
// is all the engine needs to run programs and to import by type token.
import * as fs from "node:fs";
import * as path from "node:path";
import { nativeTypeToken } from "../provider/api/typeTokens";
import { specs } from "../provider/resources";

/** The package's root (holding its package.json), from source (native/) or build (dist/native/). */
const ROOT = [path.resolve(__dirname, ".."), path.resolve(__dirname, "..", "..")].find((dir) => {
  const manifest = path.join(dir, "package.json");
  return (
    fs.existsSync(manifest) &&
    (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "pulumi-txmail"
  );
})!;

export const PACKAGE_VERSION: string = (
  JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }
).version;

const CONFIG = {
  apiKey: { type: "string", secret: true, description: "API key of the account (TXMAIL_API_KEY when unset)." },
  accountId: { type: "string", description: "The account's id, a uuid (TXMAIL_ACCOUNT_ID when unset)." },
  baseUrl: {
    type: "string",
    description: "Service base URL (TXMAIL_BASE_URL when unset; default the public service).",
  },
};

function minimalSchema(): Record<string, unknown> {
  return {
    name: "txmail",
    version: PACKAGE_VERSION,
    config: { variables: CONFIG },
    provider: { inputProperties: CONFIG, properties: CONFIG },
    resources: Object.fromEntries(Object.keys(specs).map((kind) => [nativeTypeToken(kind), { properties: {} }])),
  };
}

let cached: string | undefined;

export function schemaText(): string {
  if (cached === undefined) {
    const generated = path.join(ROOT, "native", "schema.json");
    cached = fs.existsSync(generated) ? fs.readFileSync(generated, "utf8") : JSON.stringify(minimalSchema());
  }
  return cached;
}
