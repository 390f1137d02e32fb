// The SDK's resource classes (sdk/nodejs/<kind>.ts) and the list that exports them
// (sdk/nodejs/generated/kinds.ts) are generated from the declarations and never edited by hand:
// this test generates them in memory and fails when a committed one differs.
import * as fs from "node:fs";
import { KINDS } from "../../../provider/api/kinds";
import * as sdk from "../../../sdk/nodejs";
import { absolute, classFile, classFiles } from "../../../tools/codegen/classes";
import { REGENERATE } from "../../../tools/codegen/fields";

describe("the SDK's generated classes", () => {
  const files = classFiles();

  test.each([...files.keys()])("%s is what the declarations generate (not stale)", (file) => {
    const committed = fs.existsSync(absolute(file)) ? fs.readFileSync(absolute(file), "utf8") : "(missing)";
    if (committed !== files.get(file)) throw new Error(`${file} is stale: run \`${REGENERATE}\`.`);
  });

  test("has one class per kind, exported by the SDK under the kind's name", () => {
    expect(KINDS.filter((kind) => !files.has(classFile(kind)))).toEqual([]);
    expect(KINDS.filter((kind) => typeof (sdk as Record<string, unknown>)[kind] !== "function")).toEqual([]);
  });

  test("registers the outputs the declaration says the class exposes", () => {
    expect(files.get(classFile("Route"))).toContain('super("Route", RouteRegistration, name, args, opts);');
  });
});
