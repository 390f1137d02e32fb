// The SDK's enum objects are the package schema's enum types, name for name and value for value:
// the TypeScript `pulumi import` prints refers to them (`txmail.Scope.Scoped`), so one missing or
// misspelt would make that code fail to compile.
import * as fs from "node:fs";
import * as path from "node:path";
import * as sdk from "../../../sdk/nodejs";
import { REPO_ROOT } from "../../../support/root";

const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "native", "schema.json"), "utf8")) as {
  types: Record<string, { enum?: Array<{ name: string; value: string }> }>;
};
const enums = Object.entries(schema.types).filter(([, t]) => t.enum);

describe("the SDK's enums", () => {
  it("the schema has enum types (so this test checks something)", () => {
    expect(enums.length).toBeGreaterThan(0);
  });

  it.each(enums)("%s is exported with the same names and values", (token, type) => {
    const name = token.split(":").pop()!;
    expect((sdk as Record<string, unknown>)[name]).toEqual(
      Object.fromEntries(type.enum!.map((e) => [e.name, e.value])),
    );
  });
});
