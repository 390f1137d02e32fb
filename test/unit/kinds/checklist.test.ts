// docs/development/adding-a-kind.md, kept honest: it lists exactly five files to write, every path
// it names exists (per kind where it names one per kind), and every kind of the list
// (provider/api/kinds.ts) is in each place that derives from those files or that the checklist says
// to write — the declaration, the provider module, the SDK class and its generated fields, the
// native schema and the generated SDKs, the policy pack's tokens, the import plan, the reference
// docs and their examples, the emulator's endpoints and dump, the scopes the policy pack expects,
// and the acceptance run (its kinds, hand-written in both programs or derived from their example, the
// operations its report knows, what it counts as created and what its sweep deletes).
import * as fs from "node:fs";
import * as path from "node:path";
import {
  KINDS,
  KIND_FACTS,
  OBJECT_KINDS,
  type Kind,
  type KindFacts,
  type ObjectKind,
  kindsWith,
} from "../../../provider/api/kinds";
import { dynamicTypeToken } from "../../../provider/api/typeTokens";
import { parseScope } from "../../../provider/api/scopes";
import type { PolicyResource } from "@pulumi/policy";
import { endpoints } from "../../../emulator/handlers";
import { ENDPOINTS, endpointKey } from "../../../provider/api/endpoints";
import { scopesNeededByKey } from "../../../policy/lib/managed";
import type { z } from "zod";
import { collectImportables, type ObjectSource } from "../../../native/importPlan/collect";
import { TYPES } from "../../../policy/lib/resources";
import { declarations } from "../../../provider/resources";
import * as sdk from "../../../sdk/nodejs";
import * as generatedFields from "../../../sdk/nodejs/generated/fields";
import { REPO_ROOT } from "../../../support/root";
import { objectsOf } from "../../../support/control";
import * as YAML from "yaml";
import { DERIVED_KINDS, RESOURCE_NAMES } from "../../../acceptance/lifecycle";
import { derivedResource } from "../../../acceptance/derived";
import { makeProvider } from "../../../provider/core/factory";
import { apiFor } from "../../../provider/core/clientApi";
import { createdByKind } from "../../../acceptance/main";
import { operationOf } from "../../../acceptance/operations";
import { DELETION_ORDER } from "../../../acceptance/sweep";
import type { Connection } from "../../../provider/core/connection";

const CHECKLIST = "docs/development/adding-a-kind.md";
const checklist = fs.readFileSync(path.join(REPO_ROOT, CHECKLIST), "utf8");

const camel = (kind: Kind) => kind[0]!.toLowerCase() + kind.slice(1);
const snake = (kind: Kind) => kind.replace(/(?<!^)([A-Z])/g, "_$1").toLowerCase();
const exists = (file: string) => fs.existsSync(path.join(REPO_ROOT, file));

/** The repository paths the checklist names in backticks (with `<kind>`/`<Kind>` placeholders). */
const named = [...new Set([...checklist.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!))].filter((p) =>
  /^(provider|emulator|native|policy|sdk|docs|test|acceptance)\//.test(p),
);

describe(CHECKLIST, () => {
  it("lists exactly five files to write: contract, emulator handler, declaration, example, contract page", () => {
    const section = /## The five files\n([\s\S]*?)\n## /.exec(checklist)?.[1] ?? "";
    const items = [...section.matchAll(/^(\d+)\. \*\*([^*]+)\*\*/gm)].map((m) => m[2]);
    expect(items).toEqual([
      "Its contract",
      "Its emulator handler",
      "Its declaration",
      "Its example",
      "Its contract page",
    ]);
    expect(named).toEqual(
      expect.arrayContaining([
        "provider/api/",
        "emulator/handlers/",
        "provider/resources/<kind>.ts",
        "docs/examples/<Kind>/main.pp",
        "docs/contract/endpoints/",
      ]),
    );
  });

  it("names only paths that exist, for every kind where a path is per kind", () => {
    const missing = named.flatMap((p) =>
      /<kind>|<Kind>/.test(p)
        ? KINDS.map((k) => p.replace("<kind>", camel(k)).replace("<Kind>", k)).filter((f) => !exists(f))
        : exists(p)
          ? []
          : [p],
    );
    expect(missing).toEqual([]);
  });
});

/** The package schema the native plugin serves. */
const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "native", "schema.json"), "utf8")) as {
  resources: Record<string, unknown>;
};
const referenceIndex = fs.readFileSync(path.join(REPO_ROOT, "docs", "reference", "README.md"), "utf8");

describe.each(KINDS)("the kind %s", (kind) => {
  it("has its declaration, its provider module and its SDK class", () => {
    expect(declarations[kind].kind).toBe(kind);
    expect(exists(`provider/kinds/${camel(kind)}.ts`)).toBe(true);
    expect(typeof (sdk as Record<string, unknown>)[kind]).toBe("function");
    expect((generatedFields as Record<string, unknown>)[`${kind}Registration`]).toBeDefined();
  });

  it("is in the native schema and the generated Python and Go SDKs", () => {
    expect(schema.resources[`txmail:index:${kind}`]).toBeDefined();
    expect(exists(`sdk/python/pulumi_txmail/${snake(kind)}.py`)).toBe(true);
    expect(exists(`sdk/go/txmail/${camel(kind)}.go`)).toBe(true);
  });

  it("has its reference page, listed in the index, and an example in every language", () => {
    expect(exists(`docs/reference/${kind}.md`)).toBe(true);
    expect(referenceIndex).toContain(`[${kind}](${kind}.md)`);
    for (const file of ["main.pp", "index.ts", "__main__.py", "main.go", "Pulumi.yaml"]) {
      expect(exists(`docs/examples/${kind}/${file}`)).toBe(true);
    }
  });

  it("names, for each operation, a scope of the service's grammar (provider/api/scopes.ts)", () => {
    // A kind that watches another deletes nothing at the service: its delete needs no scope.
    const ops = (KIND_FACTS[kind] as KindFacts).watches
      ? (["read", "write"] as const)
      : (["read", "write", "delete"] as const);
    const scopes = ops.map((op) => declarations[kind].scopes[op]({})[0] ?? op);
    expect(scopes.filter((scope) => parseScope(scope) === undefined)).toEqual([]);
  });

  it("is matched by the policy pack under its dynamic token", () => {
    expect(TYPES[kind]).toBe(dynamicTypeToken(kind));
  });

  it("has the facts its declaration's inputs show (a key: scopes and ipAllowList; an endpoint: url)", () => {
    const inputs = Object.keys((declarations[kind].inputs as unknown as z.ZodObject).shape);
    const facts: KindFacts = KIND_FACTS[kind];
    expect({ key: facts.key === true, endpoint: facts.endpoint === true }).toEqual({
      key: inputs.includes("scopes") && inputs.includes("ipAllowList"),
      endpoint: inputs.includes("url"),
    });
  });
});

describe.each(kindsWith("managed"))("the managed kind %s", (kind) => {
  it("needs, for the policy pack, the scopes its declaration names (managementScopes.ts, policy/lib/managed.ts)", () => {
    const resource = {
      type: dynamicTypeToken(kind),
      props: {},
      propertyDependencies: { connection: [{ urn: "key" }] },
    };
    const needed = scopesNeededByKey([resource as unknown as PolicyResource]).get("key");
    expect(needed).toBeInstanceOf(Set);
    const scopes = [...(needed as Set<string>)];
    expect({ scopes, unknown: scopes.filter((scope) => parseScope(scope) === undefined) }).toEqual({
      scopes: expect.arrayContaining(
        (["read", "write", "delete"] as const).flatMap((op) => declarations[kind].scopes[op]({}).slice(0, 1)),
      ),
      unknown: [],
    });
  });
});

describe("the import plan", () => {
  /** A service whose every collection holds one object with every field a title may use. */
  const record = {
    id: "0f8fad5b-d9cb-469f-a165-70867728950e",
    name: "n",
    label: "l",
    domain: "mail.example.com",
    email: "a@example.com",
    status: "active",
    account_id: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    expires_at: "2999-01-01T00:00:00Z",
  };
  const source = {
    async *list() {
      yield record;
    },
    get: async () => ({ data: [record] }),
  } as unknown as ObjectSource;

  it("plans every kind of the list, or says why it cannot", async () => {
    const { found, skipped } = await collectImportables(source, "b1c4a89e-4905-4b2c-8a1e-2f6d1e9a0c11");
    const covered = new Set([...found.map((f) => f.kind), ...skipped.map((s) => s.kind)]);
    expect(OBJECT_KINDS.filter((k) => !covered.has(k))).toEqual([]);
  });
});

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
/**
 * `file: missing <what>` for each kind `has` says is missing, so a failure names the place. Only
 * kinds that are objects at the service: a kind that watches another (DomainVerification) has no
 * collection, dump section, import or sweep of its own.
 */
const missingIn = (file: string, what: string, has: (kind: ObjectKind) => boolean) =>
  OBJECT_KINDS.filter((kind) => !has(kind)).map((kind) => `${file}: no ${what} ${kind}`);

/** A kind's collection and one object's path, with the placeholders the contract report uses. */
const conn = { accountId: "{account_id}" } as Connection;
const props = { subAccountId: "{sub_account_id}", domain: "{domain}", email: "{email}" };
const collectionOf = (kind: Kind) => decodeURIComponent(declarations[kind].collectionPath(conn, props));
const itemOf = (kind: Kind) => decodeURIComponent(declarations[kind].itemPath(conn, props, "{id}")).split("?")[0]!;

describe("the emulator", () => {
  it("serves each kind's list, create and delete (emulator/handlers)", () => {
    const anyId = (template: string) => template.replace(/\{[a-z_]+\}/g, "{}");
    const served = new Set(
      Object.keys(endpoints).map((name) => anyId(endpointKey(ENDPOINTS[name as keyof typeof ENDPOINTS]))),
    );
    const file = "emulator/handlers/index.ts";
    expect([
      ...missingIn(file, "list of", (kind) => served.has(anyId(`GET ${collectionOf(kind)}`))),
      ...missingIn(file, "create of", (kind) => served.has(anyId(`POST ${collectionOf(kind)}`))),
      ...missingIn(file, "delete of", (kind) => served.has(anyId(`DELETE ${itemOf(kind)}`))),
    ]).toEqual([]);
  });

  it("finds each kind's objects in its state dump (support/control.ts)", () => {
    const unplaced = OBJECT_KINDS.flatMap((kind) => {
      try {
        objectsOf(kind);
        return [];
      } catch (e) {
        return [(e as Error).message];
      }
    });
    expect(unplaced).toEqual([]);
  });
});

/** The programs' resource names of the kinds with hand-written steps, by kind. */
const NAMES: Partial<Record<ObjectKind, string>> = RESOURCE_NAMES;
const handWritten = (Object.keys(NAMES) as ObjectKind[]).filter((kind) => OBJECT_KINDS.includes(kind));

describe("the acceptance run", () => {
  it("walks every kind: with hand-written steps, or derived (every managed kind without them)", () => {
    expect(
      missingIn(
        "acceptance/lifecycle.ts",
        "steps or derivation for",
        (kind) => kind in NAMES !== DERIVED_KINDS.includes(kind),
      ),
    ).toEqual([]);
  });

  it("declares each hand-written kind's resource, under its lifecycle name, in both programs", () => {
    const yamlFile = "acceptance/programs/yaml/Pulumi.yaml";
    const yamlResources = (YAML.parse(read(yamlFile)) as { resources: Record<string, { type: string }> }).resources;
    const tsFile = "acceptance/programs/typescript/index.ts";
    const ts = read(tsFile);
    const lacking = (file: string, has: (kind: ObjectKind) => boolean) =>
      handWritten.filter((kind) => !has(kind)).map((kind) => `${file}: no resource of the kind ${kind}`);
    expect([
      ...lacking(yamlFile, (kind) =>
        [`txmail:${kind}`, `txmail:index:${kind}`].includes(yamlResources[NAMES[kind]!]?.type ?? ""),
      ),
      ...lacking(tsFile, (kind) => new RegExp(`new txmail\\.${kind}\\(\\s*"${NAMES[kind]}"`).test(ts)),
    ]).toEqual([]);
  });

  it.each(DERIVED_KINDS)("derives %s's resource from its example, changed at the step it says", async (kind) => {
    const steps = ([1, 2, 3] as const).map((step) => derivedResource(kind, "txacc-20260101-abcdef-ts", step));
    expect(Object.values(NAMES)).not.toContain(steps[0]!.name);
    // What the lifecycle counts is what the provider's own diff makes of the steps' values: step 2
    // updates the kind in place, or step 3 replaces it, or neither changes it.
    const provider = makeProvider(declarations[kind], apiFor);
    // Check wants a connection it could reach the service with; nothing here is sent.
    const connection = {
      apiKey: "key",
      accountId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      baseUrl: "http://127.0.0.1:9",
    };
    const checked = await Promise.all(steps.map((r) => provider.check({}, { ...r.properties, connection })));
    expect(checked.flatMap((c) => c.failures ?? [])).toEqual([]);
    const inputs = checked.map((c) => c.inputs!);
    const outcome = async (i: number) => {
      const d = await provider.diff("id", inputs[i]!, inputs[i + 1]!);
      return (d.replaces ?? []).length > 0 ? "replace" : d.changes ? "update" : "same";
    };
    const { change } = steps[0]!;
    expect([await outcome(0), await outcome(1)]).toEqual([
      change === "update" ? "update" : "same",
      change === "replace" ? "replace" : "same",
    ]);
  });

  it("knows each kind's list, create and delete in its operations table", () => {
    const known = (method: string, template: string) =>
      operationOf(method, template.replace(/\{[a-z_]+\}/g, "7c9e6679-7425-40de-944b-e07fc1f90ae7")) !== undefined;
    const file = "acceptance/operations.ts";
    expect([
      ...missingIn(file, "list of", (kind) => known("GET", collectionOf(kind))),
      ...missingIn(file, "create of", (kind) => known("POST", collectionOf(kind))),
      ...missingIn(file, "delete of", (kind) => known("DELETE", itemOf(kind))),
    ]).toEqual([]);
  });

  it("counts a create of every kind among the objects created", () => {
    const operations = OBJECT_KINDS.map((kind) => ({
      operation: `POST ${collectionOf(kind)}`,
      statuses: { "201": 1 },
    }));
    const created = createdByKind({ operations } as unknown as Parameters<typeof createdByKind>[0]);
    expect(
      missingIn("acceptance/main.ts (createdByKind)", "create counted for", (kind) => created[kind] === 1),
    ).toEqual([]);
  });

  it("sweeps every kind", () => {
    expect(missingIn("acceptance/sweep.ts", "deletion of", (kind) => DELETION_ORDER.includes(kind))).toEqual([]);
  });
});
