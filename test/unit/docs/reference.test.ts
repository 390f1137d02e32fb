// docs/reference/*.md is generated from the declarations and docs/examples and never edited by hand:
// this test regenerates every page in memory and fails when a committed page differs (a declaration
// or an example changed and the pages were not regenerated), naming the command that regenerates them.
import * as fs from "node:fs";
import * as path from "node:path";
import { uuidImportId } from "../../../provider/core/importId";
import { declarations } from "../../../provider/resources";
import { DATA_FUNCTIONS } from "../../../native/schema/functions";
import { KINDS } from "../../../provider/api/kinds";
import {
  EXAMPLE_FILES,
  PAGES,
  REFERENCE_DIR,
  REGENERATE,
  examplePath,
  referencePages,
} from "../../../docs/codegen/reference";

describe("docs/reference", () => {
  const pages = referencePages();

  test("every page is what the declarations and examples generate (not stale)", () => {
    const committed = fs.existsSync(REFERENCE_DIR)
      ? fs.readdirSync(REFERENCE_DIR).filter((f) => f.endsWith(".md"))
      : [];
    const stale = [...new Set([...committed, ...Object.keys(pages)])].sort().filter((file) => {
      const p = path.join(REFERENCE_DIR, file);
      return !fs.existsSync(p) || !(file in pages) || fs.readFileSync(p, "utf8") !== pages[file];
    });
    if (stale.length > 0) {
      throw new Error(
        `docs/reference is stale: ${stale.map((f) => `docs/reference/${f}`).join(", ")} differ from what the ` +
          `declarations and docs/examples generate. Run \`${REGENERATE}\`.`,
      );
    }
  });

  test("a page for each kind of the list, the Tenant component and the data functions, and an index", () => {
    expect([...PAGES].sort()).toEqual([...KINDS, "Tenant", "functions"].sort());
    expect(Object.keys(pages).sort()).toEqual([...PAGES.map((p) => `${p}.md`), "README.md"].sort());
    for (const page of PAGES) expect(pages["README.md"]).toContain(`(${page}.md)`);
  });

  test("each page includes its four examples verbatim, but for their generated-file line", () => {
    for (const page of PAGES) {
      for (const { file } of EXAMPLE_FILES) {
        const [generatedLine, blank, ...program] = fs
          .readFileSync(examplePath(page, file), "utf8")
          .trimEnd()
          .split("\n");
        expect([generatedLine, blank]).toEqual([expect.stringMatching(/examplegen.*(do not edit|DO NOT EDIT)/), ""]);
        const text = program.join("\n");
        expect({ page, file, included: pages[`${page}.md`]!.includes(`\n${text}\n\`\`\``) }).toEqual({
          page,
          file,
          included: true,
        });
      }
    }
  });

  test("each kind's page gives its import id form, replace triggers and one-time secrets from the declaration", () => {
    for (const kind of KINDS) {
      const declaration = declarations[kind]!;
      const page = pages[`${kind}.md`]!;
      expect(page).toContain(
        `pulumi import txmail:index:${kind} <name> '${(declaration.importId ?? uuidImportId).syntax}'`,
      );
      for (const trigger of declaration.replaceOn)
        expect(page).toMatch(new RegExp(`## Replacement\\n\\n[^#]*\`${trigger}\``));
      for (const secret of Object.keys(declaration.createOnly ?? {}))
        expect(page).toContain(`- \`${secret}\` (output: returned once`);
      for (const secret of declaration.writeOnly ?? []) expect(page).toContain(`- \`${secret}\` (input, write-only`);
    }
    expect(pages["SubAccountApiKey.md"]).toContain("'<subAccountId>/<keyId>'");
    expect(pages["AccountMember.md"]).toContain("'<email>/<userId>'");
    expect(pages["Domain.md"]).toContain("when `domain` stays the same");
    expect(pages["Suppression.md"]).toContain("when `email` and `domain` stay the same");
    expect(pages["SmtpCredential.md"]).toContain("The replacement is created before the old object is deleted.");
  });

  test("the functions page documents every data function", () => {
    for (const f of DATA_FUNCTIONS)
      expect(pages["functions.md"]).toContain(`## ${f.name}\n\n\`txmail:index:${f.name}\``);
  });
});
