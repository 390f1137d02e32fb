// The README's Pulumi YAML quickstart runs as written against the emulator (the YAML language host
// and the txmail plugin that setup provides). A YAML stack of Tenants and a plain resource fed by a
// tenant's output destroyed to nothing is yamlTenants.test.ts's.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { controlClient, serviceObjects } from "../../../support/control";
import { createTestStack, REPO_ROOT, type TestStack } from "../harness";
import { startService, type TestService } from "../../../support/service";

jest.setTimeout(10 * 60_000);

/** The first ```yaml block of the README's YAML quickstart section, verbatim. */
function readmeYaml(): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Pulumi YAML quickstart"));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error("README.md has no ```yaml block in its Pulumi YAML quickstart");
  return block[1]!;
}

let svc: TestService;
let t: TestStack | undefined;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

it("the README's Pulumi YAML quickstart runs as written", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-readme-yaml-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), readmeYaml());
  t = await createTestStack({ programDir: dir, name: "readme-yaml", config: svc.config() });
  const baseline = new Set(serviceObjects(await controlClient(svc).dumpState()).map((o) => o.id));
  const created = async () =>
    serviceObjects(await controlClient(svc).dumpState())
      .filter((o) => !baseline.has(o.id))
      .map((o) => o.kind)
      .sort();

  const up = await t.up();
  expect(up.summary.result).toBe("succeeded");
  const records = up.outputs.dnsRecords?.value as Array<{ type: string; host: string }>;
  expect(records.length).toBeGreaterThan(0);
  // The tenant (sub account, bootstrap key, domain, route) and the plain key fed by its output.
  expect(await created()).toEqual(["Domain", "Route", "SubAccount", "SubAccountApiKey", "SubAccountApiKey"]);
});
