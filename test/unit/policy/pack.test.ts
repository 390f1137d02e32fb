// The pack as the engine loads it: its files, names, enforcement levels and config schemas.
// (index.ts is not imported: constructing the PolicyPack starts its gRPC server.)
import * as fs from "node:fs";
import * as path from "node:path";
import { policies } from "../../../policy/policies";
import { TYPES } from "../../../policy/lib/resources";
import { KINDS } from "../../../provider/api/kinds";

const PACK = path.join(__dirname, "../../../policy");

describe("txmail-policies", () => {
  it("has the files the Node language host and @pulumi/policy need", () => {
    expect(fs.readFileSync(path.join(PACK, "PulumiPolicy.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
    // PolicyPack reads its version from <pack>/package.json; require(<pack>) loads "main", which
    // picks index.ts in a checkout and the compiled dist/policy when installed under node_modules.
    const pkg = JSON.parse(fs.readFileSync(path.join(PACK, "package.json"), "utf8")) as Record<string, unknown>;
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(pkg.main).toBe("index.js");
    const main = fs.readFileSync(path.join(PACK, "index.js"), "utf8");
    expect(main).toContain('require("./index.ts")');
    expect(main).toContain('require("../dist/policy/index.js")');
    // The runner reads <pack>/tsconfig.json; TypeScript 6 needs rootDir since the pack imports ../provider.
    const tsconfig = JSON.parse(fs.readFileSync(path.join(PACK, "tsconfig.json"), "utf8")) as {
      compilerOptions: Record<string, unknown>;
    };
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, rootDir: ".." });
    expect(fs.readFileSync(path.join(PACK, "index.ts"), "utf8")).toContain('new PolicyPack("txmail-policies"');
  });

  it("names each policy once", () => {
    const names = policies.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain("all"); // reserved by @pulumi/policy
  });

  it("makes the allow-list rules mandatory and the others advisory", () => {
    expect(Object.fromEntries(policies.map((p) => [p.name, p.enforcementLevel]))).toEqual({
      "ip-allow-list-no-allow-all": "mandatory",
      "ip-allow-list-valid-entries": "mandatory",
      "ip-allow-list-max-entries": "mandatory",
      // Mandatory for keys that can change the account; it lowers its other findings to advisory.
      "sub-account-key-requires-allow-list": "mandatory",
      "ip-allow-list-broad-prefix": "advisory",
      "api-key-broad-scopes": "advisory",
      "endpoint-https": "advisory",
      "credential-rotation": "advisory",
    });
  });

  it("gives every configurable policy a config schema with defaults, and never an enforcementLevel property", () => {
    const configurable = policies.filter(
      (p) => p.enforcementLevel === "advisory" || p.name === "sub-account-key-requires-allow-list",
    );
    expect(configurable).toHaveLength(5);
    for (const p of configurable) {
      const props = Object.entries(p.configSchema?.properties ?? {});
      expect(props.length).toBeGreaterThan(0);
      for (const [name, schema] of props) {
        expect(name).not.toBe("enforcementLevel");
        expect(schema).toHaveProperty("default");
        expect(schema).toHaveProperty("description");
      }
    }
  });

  it("matches the SDK's dynamic resource type tokens, one per kind of the list", () => {
    expect(Object.keys(TYPES)).toEqual(KINDS);
    expect(TYPES.SmtpCredential).toBe("pulumi-nodejs:dynamic/txmail:SmtpCredential");
    expect(TYPES.SubAccountApiKey).toBe("pulumi-nodejs:dynamic/txmail:SubAccountApiKey");
  });
});

describe("policy-config.example.json", () => {
  const example = JSON.parse(fs.readFileSync(path.join(PACK, "policy-config.example.json"), "utf8")) as Record<
    string,
    Record<string, unknown>
  >;

  it("is the example shown in the README", () => {
    const readme = fs.readFileSync(path.join(PACK, "README.md"), "utf8");
    const block = /```json\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(JSON.parse(block)).toEqual(example);
  });

  it("configures only policies of the pack, with properties their schemas declare and types they accept", () => {
    const byName = new Map(policies.map((p) => [p.name, p]));
    for (const [name, config] of Object.entries(example)) {
      const schema = byName.get(name)?.configSchema?.properties ?? {};
      expect(byName.has(name)).toBe(true);
      for (const [key, value] of Object.entries(config)) {
        if (key === "enforcementLevel") {
          expect(["advisory", "mandatory", "disabled"]).toContain(value);
          continue;
        }
        expect(Object.keys(schema)).toContain(key);
        const type = schema[key].type;
        if (type === "array") expect(Array.isArray(value)).toBe(true);
        else if (type === "integer") expect(Number.isInteger(value)).toBe(true);
        else expect(typeof value).toBe(type);
      }
    }
  });
});
