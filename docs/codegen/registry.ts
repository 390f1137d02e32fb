// The Pulumi Registry's overview page, docs/_index.md: its prose is written by hand, and its generated
// sections — between `<!-- generated:<name> -->` and `<!-- /generated:<name> -->` — are written here:
//   - examples: docs/examples/overview/ in the Registry's language chooser, the same files the tests
//     type-check, compile and check as every reference page's examples (EXAMPLE_DIRS);
//   - resources: the resource kinds, the Tenant component and the data functions, from the schema.
// `npm run gen:docs` rewrites them; test/unit/docs/registry.test.ts fails while one is stale.
import * as path from "node:path";
import { DATA_FUNCTIONS } from "../../native/schema/functions";
import { packageSchema } from "../../native/schema/packageSchema";
import { token } from "../../native/schema/tokens";
import { REPO_ROOT } from "../../support/root";
import { COMPONENT, EXAMPLE_FILES, KINDS, OVERVIEW, exampleText } from "./reference";

export const REGISTRY_INDEX = path.join(REPO_ROOT, "docs", "_index.md");
export const REGISTRY_INSTALLATION = path.join(REPO_ROOT, "docs", "installation-configuration.md");

const REPOSITORY = packageSchema().repository;

/** The overview's examples: one per language, in the Registry's chooser. */
function examplesSection(): string {
  const languages = EXAMPLE_FILES.map((f) => f.chooser).join(",");
  const choosables = EXAMPLE_FILES.map(({ file, chooser }) => {
    const text = exampleText(OVERVIEW, file);
    return `{{% choosable language ${chooser} %}}\n\n\`\`\`${chooser}\n${text}\n\`\`\`\n\n{{% /choosable %}}\n`;
  });
  return `{{< chooser language "${languages}" >}}\n\n${choosables.join("\n")}\n{{< /chooser >}}\n`;
}

/** What the package manages, one line each, linking the reference page in the repository. */
function resourcesSection(): string {
  const schema = packageSchema();
  const reference = `${REPOSITORY}/blob/main/docs/reference`;
  const firstSentence = (text: string | undefined) => (text ?? "").split(/(?<=\.)\s/)[0]!.replace(/\s*\n\s*/g, " ");
  const rows = [...KINDS, COMPONENT].map((kind) => {
    const what = firstSentence(schema.resources[token(kind)]!.description);
    return `- [\`${kind}\`](${reference}/${kind}.md)${kind === COMPONENT ? " (component)" : ""}: ${what}`;
  });
  const functions = DATA_FUNCTIONS.map((f) => `\`${f.name}\``).join(", ");
  rows.push(`- [Data functions](${reference}/functions.md): ${functions}.`);
  return `${rows.join("\n")}\n`;
}

/** Every generated section of docs/_index.md: name → text. */
export function overviewSections(): Record<string, string> {
  return { examples: examplesSection(), resources: resourcesSection() };
}

/** `page` with each generated section's text replaced by what the examples and schema generate now. */
export function withGeneratedSections(page: string, sections: Record<string, string> = overviewSections()): string {
  let text = page;
  for (const [name, body] of Object.entries(sections)) {
    const begin = `<!-- generated:${name} (npm run gen:docs; do not edit) -->\n`;
    const end = `<!-- /generated:${name} -->`;
    const from = text.indexOf(begin);
    const to = text.indexOf(end, from);
    if (from < 0 || to < 0)
      throw new Error(`docs/_index.md: no generated section '${name}' (${begin.trim()} … ${end})`);
    text = `${text.slice(0, from + begin.length)}\n${body}\n${text.slice(to)}`;
  }
  return text;
}
