// What `import * as txmail from "pulumi-txmail"` loads: the resource classes only. The HTTP client,
// the API schemas (zod) and the YAML parser load on first use of a look-up or a tenants file, so a
// program that declares resources starts without them. Checked on the built package (dist/, built by
// scripts/setup.sh) in a fresh Node process, as a program would load it.
import * as path from "node:path";
import { modulesLoadedBy } from "../../../support/loadedModules";

const root = path.join(__dirname, "..", "..", "..");

const heavy = /node_modules[\\/](zod|yaml|undici)[\\/]/;

it("loads no HTTP client, schema library or YAML parser when the SDK is imported", () => {
  const loaded = modulesLoadedBy(`require(${JSON.stringify(path.join(root, "dist", "sdk", "nodejs", "index.js"))})`);
  expect(loaded.some((m) => m.endsWith(path.join("dist", "sdk", "nodejs", "tenant.js")))).toBe(true);
  expect(loaded.filter((m) => heavy.test(m))).toEqual([]);
});

it("loads the YAML parser when a tenants file is parsed", () => {
  const sdk = JSON.stringify(path.join(root, "dist", "sdk", "nodejs", "index.js"));
  const loaded = modulesLoadedBy(`require(${sdk}).parseTenants("tenants: []")`);
  expect(loaded.some((m) => /node_modules[\\/]yaml[\\/]/.test(m))).toBe(true);
});
