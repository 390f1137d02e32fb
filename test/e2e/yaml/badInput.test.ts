// Bad input in a YAML tenant is named where it is: the preview of a Tenant built by the plugin
// fails on the child's field with the rule it breaks, before anything reaches the service.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { controlClient } from "../../../support/control";
import { createTestStack, type TestStack } from "../harness";
import { startService, type TestService } from "../../../support/service";

jest.setTimeout(10 * 60_000);

const program = `name: bad-yaml
runtime: yaml
resources:
  acme:
    type: txmail:index:Tenant
    properties:
      website: acme.example.com
      bootstrapKey: { ipAllowList: [127.0.0.1] }
      routes:
        support:
          name: support
          url: ftp://acme.example.com/inbound
`;

let svc: TestService;
let t: TestStack | undefined;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

it("a tenant's route with a bad url fails the preview, naming the route, the field and the rule", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-bad-yaml-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program);
  t = await createTestStack({ programDir: dir, name: "bad-yaml", config: svc.config() });
  const control = controlClient(svc);
  await control.resetCounters();
  await expect(t.preview()).rejects.toThrow(
    /txmail:index:Route resource 'acme-route-support': property url value \{ftp:\/\/acme\.example\.com\/inbound\} has a problem: url: /,
  );
  // The plugin answered with the error; it did not crash.
  expect(t.log()).not.toMatch(/Cannot read properties|could not read plugin|TypeError/);
  expect((await control.counters()).writes).toBe(0);
});
