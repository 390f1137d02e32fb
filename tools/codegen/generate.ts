// `npm run gen:sdk` (after scripts/gen-kinds.js and a build): writes sdk/nodejs/generated/fields.ts,
// the resource classes (sdk/nodejs/<kind>.ts) and sdk/nodejs/generated/kinds.ts from the declarations.
import * as fs from "node:fs";
import * as path from "node:path";
import { absolute, classFiles } from "./classes";
import { FIELDS_FILE, fieldsText } from "./fields";

fs.mkdirSync(path.dirname(FIELDS_FILE), { recursive: true });
fs.writeFileSync(FIELDS_FILE, fieldsText());
process.stdout.write(`wrote ${path.relative(process.cwd(), FIELDS_FILE)}\n`);
for (const [file, text] of classFiles()) {
  fs.mkdirSync(path.dirname(absolute(file)), { recursive: true });
  fs.writeFileSync(absolute(file), text);
}
process.stdout.write(`wrote ${classFiles().size} class files\n`);
