// native/schema.json is generated from the declarations and never edited by hand: this test
// regenerates it in memory and fails when the committed file differs (a declaration changed and
// the schema was not regenerated), naming the command that regenerates it.
import * as fs from "node:fs";
import { SCHEMA_FILE, schemaText } from "../../../native/schema/packageSchema";
import { KINDS } from "../../../provider/api/kinds";

const REGENERATE = "npm run gen:schema";

describe("native/schema.json", () => {
  const generated = schemaText();
  const schema = JSON.parse(generated) as Record<string, any>;

  test("is what the declarations generate (not stale)", () => {
    const committed = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, "utf8") : "(missing)";
    if (committed !== generated) {
      throw new Error(`native/schema.json is stale: the declarations generate another schema. Run \`${REGENERATE}\`.`);
    }
  });

  test("every reference names a type or resource of the package (or Pulumi's Any)", () => {
    const refs = [...generated.matchAll(/"\$ref": "([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(20);
    const dangling = refs.filter((ref) => {
      if (ref === "pulumi.json#/Any") return false;
      const m = /^#\/(types|resources)\/(.+)$/.exec(ref);
      return !m || !(m[2]! in schema[m[1]!]);
    });
    expect(dangling).toEqual([]);
  });

  test("names the package, its version and its configuration", () => {
    const manifest = JSON.parse(fs.readFileSync(`${__dirname}/../../../package.json`, "utf8")) as { version: string };
    expect(schema.name).toBe("txmail");
    expect(schema.version).toBe(manifest.version);
    expect(Object.keys(schema.config.variables).sort()).toEqual(["accountId", "apiKey", "baseUrl"]);
    expect(schema.config.variables.apiKey.secret).toBe(true);
    expect(schema.provider.inputProperties).toEqual(schema.config.variables);
  });

  test("holds every kind of the list, the Tenant component and the data functions", () => {
    expect(Object.keys(schema.resources).sort()).toEqual([...KINDS, "Tenant"].map((k) => `txmail:index:${k}`).sort());
    expect(schema.resources["txmail:index:Tenant"].isComponent).toBe(true);
    expect(Object.keys(schema.functions).sort()).toEqual(
      ["getSubAccountUsage", "lookupApiKey", "lookupDomain", "lookupRoute", "lookupWebhook"].map(
        (f) => `txmail:index:${f}`,
      ),
    );
  });

  test("never exposes the dynamic SDK's private inputs (__urn, __stackSalt)", () => {
    expect(generated).not.toMatch(/__urn|__stackSalt/);
  });
});
