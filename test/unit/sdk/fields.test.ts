// sdk/nodejs/generated/fields.ts (the SDK classes' field names, optionality, TSDoc and what they register)
// is generated from the declarations and never edited by hand: this test regenerates it in memory and fails when the
// committed file differs (a declaration changed and the file was not regenerated).
import * as fs from "node:fs";
import type { z } from "zod";
import { declarations } from "../../../provider/resources";
import { FIELDS_FILE, REGENERATE, fieldsText } from "../../../tools/codegen/fields";

describe("sdk/nodejs/generated/fields.ts", () => {
  const generated = fieldsText();

  test("is what the declarations generate (not stale)", () => {
    const committed = fs.existsSync(FIELDS_FILE) ? fs.readFileSync(FIELDS_FILE, "utf8") : "(missing)";
    if (committed !== generated) {
      throw new Error(
        `sdk/nodejs/generated/fields.ts is stale: the declarations generate another text. Run \`${REGENERATE}\`.`,
      );
    }
  });

  test("lists every declared input of every kind, optional where the schema lets a program omit it", () => {
    for (const [kind, declaration] of Object.entries(declarations)) {
      const body = new RegExp(`export interface ${kind}Fields \\{\\n([\\s\\S]*?)\\n\\}\\n`).exec(generated)?.[1] ?? "";
      const listed = [...body.matchAll(/^ {2}(\w+)(\??): unknown;$/gm)].map((m) => `${m[1]}${m[2]}`);
      const shape = (declaration.inputs as unknown as z.ZodObject).shape as Record<string, z.ZodType>;
      const declared = Object.entries(shape).map(([f, s]) => `${f}${s.safeParse(undefined).success ? "?" : ""}`);
      expect([kind, listed]).toEqual([kind, declared]);
    }
  });

  test("carries each field's description as its TSDoc", () => {
    expect(generated).toContain("/** Where inbound mail is posted (http or https). */\n  url: unknown;");
  });
});
