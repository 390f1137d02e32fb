// `npm run gen:sdk`: writes sdk/nodejs/generated/fields.ts from the declarations.
import * as fs from "node:fs";
import * as path from "node:path";
import { FIELDS_FILE, fieldsText } from "./fields";

fs.mkdirSync(path.dirname(FIELDS_FILE), { recursive: true });
fs.writeFileSync(FIELDS_FILE, fieldsText());
process.stdout.write(`wrote ${path.relative(process.cwd(), FIELDS_FILE)}\n`);
