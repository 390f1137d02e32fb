// The Pulumi Registry pages, docs/_index.md and docs/installation-configuration.md:
//   - _index.md's generated sections (its examples, docs/examples/overview/, checked by examples.test.ts
//     and test/e2e/docs/examplesSdks.test.ts; its list of resources) are what `npm run gen:docs` writes;
//   - both carry the front matter the Registry reads (title, meta_desc, layout);
//   - installation-configuration.md names the packages as their manifests do, and documents every
//     `txmail:*` setting (the schema's config variables and every key the sources read) and every
//     environment variable the shipped sources read (found by reading them: there is no one list).
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { packageSchema } from "../../../native/schema/packageSchema";
import { REPO_ROOT } from "../../../support/root";
import { yamlCheckProblems, yamlProblems, type YamlProgram } from "./yamlPrograms";
import { EXAMPLE_FILES, OVERVIEW, REGENERATE, examplePath } from "../../../docs/codegen/reference";
import {
  REGISTRY_INDEX,
  REGISTRY_INSTALLATION,
  overviewSections,
  withGeneratedSections,
} from "../../../docs/codegen/registry";

const read = (file: string) => fs.readFileSync(file, "utf8");

/** The page's front matter (the YAML between the leading `---` lines). */
function frontMatter(text: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) throw new Error("no front matter");
  return parse(m[1]!) as Record<string, unknown>;
}

describe("docs/_index.md (the Registry overview)", () => {
  const page = read(REGISTRY_INDEX);

  test("its generated sections are what the examples and the schema generate (not stale)", () => {
    if (withGeneratedSections(page) !== page) {
      throw new Error(`docs/_index.md's generated sections are stale: run \`${REGENERATE}\`.`);
    }
  });

  test("the staleness check sees an edited example", () => {
    const sections = overviewSections();
    const edited = { ...sections, examples: sections.examples.replace("acme.example.com", "acme.example.org") };
    expect(withGeneratedSections(page, edited)).not.toEqual(page);
  });

  test("it shows each overview example verbatim in the Registry's language chooser", () => {
    const languages = EXAMPLE_FILES.map((f) => f.chooser);
    expect(page).toContain(`{{< chooser language "${languages.join(",")}" >}}`);
    for (const { file, chooser } of EXAMPLE_FILES) {
      // Shown without the line saying the file is generated (the first, then a blank line).
      const text = read(examplePath(OVERVIEW, file)).trimEnd().split("\n").slice(2).join("\n");
      expect({
        file,
        shown: page.includes(`{{% choosable language ${chooser} %}}\n\n\`\`\`${chooser}\n${text}\n\`\`\``),
      }).toEqual({ file, shown: true });
    }
  });

  test("front matter: title, meta_desc, layout package", () => {
    expect(frontMatter(page)).toEqual({ title: expect.any(String), meta_desc: expect.any(String), layout: "package" });
  });
});

describe("docs/installation-configuration.md", () => {
  const page = read(REGISTRY_INSTALLATION);

  test("front matter: title, meta_desc, layout installation", () => {
    expect(frontMatter(page)).toEqual({
      title: expect.any(String),
      meta_desc: expect.any(String),
      layout: "installation",
    });
  });
});

// ---- what the sources read ------------------------------------------------------------------------

/** The shipped code that reads config or the environment: the provider, both faces, the CLIs, the policy pack. */
const SOURCE_DIRS = ["provider", "sdk/nodejs", "native", "fleet", "emulator", "policy"];

/** The OS's own variables the sources read only to pass them on: not configuration. */
const NOT_CONFIGURATION = ["PATH"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "codegen" || entry.name === "node_modules" ? [] : sourceFiles(rel);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [rel] : [];
  });
}

const matches = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m[1]!);

/** Every environment variable a file reads: `process.env.X`, `env.X`, `env["X"]`, and TXMAIL_* names it looks up. */
function envReads(text: string): string[] {
  if (!/process\.env|ProcessEnv/.test(text)) return [];
  return [
    ...matches(text, /\benv\.([A-Z][A-Z0-9_]*)\b/g),
    ...matches(text, /\benv\[\s*"([A-Z][A-Z0-9_]*)"\s*\]/g),
    ...matches(text, /"(TXMAIL_[A-Z0-9_]+)"/g),
  ];
}

/** Every `txmail:<key>` a file reads: the literal key, or a getter of `new pulumi.Config("txmail")`. */
function configReads(text: string): string[] {
  const literal = matches(text, /"txmail:([A-Za-z]\w*)"/g);
  const getters = /Config\("txmail"\)/.test(text)
    ? matches(text, /\.(?:get|require)\w*\(\s*"([A-Za-z]\w*)"\s*\)/g)
    : [];
  return [...literal, ...getters];
}

const sources = SOURCE_DIRS.flatMap(sourceFiles).map((file) => read(path.join(REPO_ROOT, file)));
const schema = packageSchema();
const schemaVariables = Object.entries(schema.config.variables);

const CONFIG_KEYS = [
  ...new Set([...schemaVariables.map(([key]) => key), ...sources.flatMap(configReads)].map((k) => `txmail:${k}`)),
].sort();
const ENV_VARS = [
  ...new Set([
    ...schemaVariables.flatMap(([, v]) => v.defaultInfo?.environment ?? []),
    ...sources.flatMap(envReads).filter((name) => !NOT_CONFIGURATION.includes(name)),
  ]),
].sort();

/** The table rows of the page's `## <title>` sections. */
function tableRows(page: string, ...titles: string[]): string[] {
  return page
    .split(/^## /m)
    .filter((section) => titles.some((t) => section.startsWith(`${t}\n`)))
    .flatMap((section) => section.split("\n").filter((line) => line.startsWith("| ")));
}

const documented = (rows: string[], name: string) => rows.some((row) => row.includes(`\`${name}\``));

describe("docs/installation-configuration.md documents what the code reads", () => {
  const page = read(REGISTRY_INSTALLATION);
  const configRows = tableRows(page, "Configuration");
  const envRows = tableRows(page, "Configuration", "Environment variables");

  test("the readers find the settings and variables (the scan works)", () => {
    expect(CONFIG_KEYS).toEqual(
      expect.arrayContaining(["txmail:apiKey", "txmail:accountId", "txmail:baseUrl", "txmail:face"]),
    );
    expect(ENV_VARS).toEqual(
      expect.arrayContaining(["TXMAIL_API_KEY", "TXMAIL_FACE", "TXMAIL_RATE_SHARE", "TXMAIL_REQUEST_TIMEOUT_SECONDS"]),
    );
    expect(envReads('f(env: NodeJS.ProcessEnv) { env.A_B; env["C"]; lookup("TXMAIL_D"); }')).toEqual([
      "A_B",
      "C",
      "TXMAIL_D",
    ]);
    expect(envReads('const code = "TXMAIL_NOT_READ";')).toEqual([]);
    expect(
      configReads('const c = new pulumi.Config("txmail"); c.get("x"); c.requireSecret("y"); k = "txmail:z";'),
    ).toEqual(["z", "x", "y"]);
  });

  test("every txmail:* setting is in the Configuration table", () => {
    expect(CONFIG_KEYS.filter((key) => !documented(configRows, key))).toEqual([]);
  });

  test("every environment variable read is in a table, with the schema's variable beside its setting", () => {
    expect(ENV_VARS.filter((name) => !documented(envRows, name))).toEqual([]);
    for (const [key, v] of schemaVariables) {
      const row = configRows.find((r) => r.includes(`\`txmail:${key}\``));
      for (const name of v.defaultInfo?.environment ?? [])
        expect({ key, row }).toEqual({ key, row: expect.stringContaining(`\`${name}\``) });
    }
  });

  test("no TXMAIL_* variable is documented that nothing reads", () => {
    const named = envRows.flatMap((row) => matches(row, /`(TXMAIL_[A-Z0-9_]+)`/g));
    expect(named.filter((name) => !ENV_VARS.includes(name))).toEqual([]);
  });

  test("it names the packages, the module, the plugin and its download URL as their manifests do", () => {
    const npm = (JSON.parse(read(path.join(REPO_ROOT, "package.json"))) as { name: string }).name;
    const pypi = /^\s*name\s*=\s*"([^"]+)"/m.exec(read(path.join(REPO_ROOT, "sdk/python/pyproject.toml")))![1]!;
    const goModule = /^module (\S+)$/m.exec(read(path.join(REPO_ROOT, "sdk/go/go.mod")))![1]!;
    expect(page).toContain(`npm install ${npm}@`);
    expect(page).toContain(`pip install ${pypi.replace(/_/g, "-")}==`);
    expect(page).toContain(`go get ${goModule}/txmail@v`);
    expect(page).toContain("`sdk/go/vX.Y.Z`");
    expect(page).toContain(`pulumi plugin install resource ${schema.name} `);
    expect(page).toContain(`\`${schema.pluginDownloadURL}\``);
    expect(page).toContain("PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES");
  });

  test("every version it shows is package.json's (a release updates the page)", () => {
    const { version } = JSON.parse(read(path.join(REPO_ROOT, "package.json"))) as { version: string };
    // After `@`, `@v`, `==`, `resource txmail `, `version: ` or a tarball's `-v`.
    const shown = matches(page, /(?:@v?|==|resource txmail |version: |-v)(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)\b/g);
    expect(shown.length).toBeGreaterThan(0);
    expect([...new Set(shown)]).toEqual([version]);
  });

  test("its Pulumi YAML program is checked like the examples and names the schema's download URL", () => {
    const blocks = matches(page, /```yaml\n([\s\S]*?)```/g);
    expect(blocks).toHaveLength(1);
    const program = blocks[0]!;
    expect([...yamlProblems(program), ...yamlCheckProblems(program)]).toEqual([]);
    const options = Object.values((parse(program) as YamlProgram).resources ?? {}).map((r) => r.options);
    expect(options).toContainEqual(expect.objectContaining({ pluginDownloadURL: schema.pluginDownloadURL }));
  });
});
