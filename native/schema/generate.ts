// Writes native/schema.json from the declarations: `npm run gen:schema` (after `npm run build`).
// Never edit that file by hand; test/unit/native/schema.test.ts fails when it is stale.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../support/root";
import { SCHEMA_FILE, schemaText } from "./packageSchema";

fs.writeFileSync(SCHEMA_FILE, schemaText());
console.log(`wrote ${path.relative(REPO_ROOT, SCHEMA_FILE)}`);
