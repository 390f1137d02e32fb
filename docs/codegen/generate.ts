// `npm run gen:docs`: writes docs/reference/ from the declarations and docs/examples, and the
// generated sections of the Registry overview (docs/_index.md). Never edit those by hand;
// test/unit/docs/reference.test.ts and registry.test.ts fail while one is stale.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../support/root";
import { REFERENCE_DIR, referencePages } from "./reference";
import { REGISTRY_INDEX, withGeneratedSections } from "./registry";

fs.mkdirSync(REFERENCE_DIR, { recursive: true });
const pages = referencePages();
for (const file of fs.readdirSync(REFERENCE_DIR)) {
  if (file.endsWith(".md") && !(file in pages)) fs.rmSync(path.join(REFERENCE_DIR, file));
}
for (const [file, text] of Object.entries(pages)) fs.writeFileSync(path.join(REFERENCE_DIR, file), text);
process.stdout.write(`wrote ${Object.keys(pages).length} pages in ${path.relative(REPO_ROOT, REFERENCE_DIR)}\n`);
fs.writeFileSync(REGISTRY_INDEX, withGeneratedSections(fs.readFileSync(REGISTRY_INDEX, "utf8")));
process.stdout.write(`wrote the generated sections of ${path.relative(REPO_ROOT, REGISTRY_INDEX)}\n`);
