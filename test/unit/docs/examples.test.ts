// The examples under docs/examples — each reference page's (docs/examples/<page>/) and the Registry
// overview's (docs/examples/overview/, shown in docs/_index.md) — are real programs, checked here:
//   - TypeScript: type-checked with tsc against the package (`pulumi-txmail`, the built dist/);
//   - Pulumi YAML (yamlPrograms.ts): every type token, function token and property is in the package
//     schema (generated in memory from the declarations), every value has the property's type (enum
//     values included), required inputs are given, and every `${…}` names a resource or variable of
//     the program and properties it has;
//   - and their literal inputs pass the provider's check (the declarations' zod schemas and rules).
// The Go and Python examples compile against the generated SDKs in test/e2e/docs/examplesSdks.test.ts.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { EXAMPLES_DIR, EXAMPLE_DIRS, examplePath } from "../../../docs/codegen/reference";
import { REPO_ROOT } from "../../../support/root";
import { yamlCheckProblems, yamlProblems } from "./yamlPrograms";

test("every page and the overview have their PCL source and its four generated examples, and nothing else is there", () => {
  const dirs = fs
    .readdirSync(EXAMPLES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  expect(dirs.sort()).toEqual([...EXAMPLE_DIRS].sort());
  for (const page of EXAMPLE_DIRS) {
    expect([page, fs.readdirSync(path.join(EXAMPLES_DIR, page)).sort()]).toEqual([
      page,
      ["Pulumi.yaml", "__main__.py", "index.ts", "main.go", "main.pp"],
    ]);
  }
});

test("the TypeScript examples type-check against the package (tsc, strict)", () => {
  const tsc = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", path.join(EXAMPLES_DIR, "tsconfig.json")],
    { encoding: "utf8" },
  );
  expect({ code: tsc.status, output: `${tsc.stdout}${tsc.stderr}` }).toEqual({ code: 0, output: "" });
});

describe("the Pulumi YAML examples' inputs pass the provider's check (what `pulumi preview` runs)", () => {
  test.each(EXAMPLE_DIRS)("%s", (page) => {
    expect(yamlCheckProblems(fs.readFileSync(examplePath(page, "Pulumi.yaml"), "utf8"))).toEqual([]);
  });

  test("the check refuses a bad value and a broken cross-field rule", () => {
    const bad = [
      "name: bad",
      "runtime: yaml",
      "resources:",
      "  k: { type: txmail:index:ApiKey, properties: { label: x, scopes: ['messages:sned:all'] } }",
      "  w: { type: txmail:index:Webhook, properties: { name: x, url: 'https://x.example', scope: scoped } }",
      "  s: { type: txmail:index:SubAccountApiKey, properties: { subAccountId: '${a.id}', label: x, scopes: [] } }",
    ].join("\n");
    expect(yamlCheckProblems(bad)).toEqual([
      expect.stringMatching(/^resources\.k\.scopes\.0: /),
      "resources.w: domains: must list at least one domain when scope is 'scoped'",
      "resources.s.scopes: at least one scope is required",
    ]);
  });
});

describe("the Pulumi YAML examples hold only what the package schema has", () => {
  test.each(EXAMPLE_DIRS)("%s", (page) => {
    expect(yamlProblems(fs.readFileSync(examplePath(page, "Pulumi.yaml"), "utf8"))).toEqual([]);
  });

  test("the check finds a wrong token, property, value, enum value, missing input and reference", () => {
    const bad = [
      "name: bad",
      "runtime: yaml",
      "resources:",
      "  a: { type: txmail:index:Nope }",
      "  b: { type: txmail:index:Route, properties: { name: x, uri: y } }",
      "  c: { type: txmail:index:Webhook, properties: { name: x, url: y, scope: everywhere, onBounced: 'yes' } }",
      "outputs:",
      "  o: ${b.secrett}",
      "  p: ${zz.id}",
    ].join("\n");
    expect(yamlProblems(bad)).toEqual([
      "resources.a: no resource type txmail:index:Nope",
      "resources.b: required 'url' missing",
      "resources.b: no property 'uri'",
      'resources.c.scope: "everywhere" is not one of global,scoped',
      "resources.c.onBounced: not a boolean",
      "outputs.o: ${b.secrett}: no property 'secrett'",
      "outputs.p: ${zz.id}: no resource or variable 'zz'",
    ]);
  });
});
