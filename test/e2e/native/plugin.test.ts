// The development path of the plugin: the checkout's script plugin (support/plugin.ts), installed in
// the Pulumi home rather than put on PATH, previews without the engine's PATH warning. (The plugin as
// users install it, by name from a release page with no node anywhere, is the release rehearsal's:
// test/e2e/release/rehearsal.test.ts, where the engine acquires it by itself.)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createTestStack, type TestStack } from "../harness";
import { PATH_PLUGIN_WARNING } from "../../../support/plugin";
import { startService, type TestService } from "../../../support/service";

jest.setTimeout(10 * 60_000);

const program = `name: dev-plugin
runtime: yaml
resources:
  acme:
    type: txmail:index:Tenant
    properties:
      website: devplugin.example.com
      domain:
        domain: mail.devplugin.example.com
      bootstrapKey:
        ipAllowList: [127.0.0.1]
`;

let svc: TestService;
let work: string;
let programDir: string;
const stacks: TestStack[] = [];

beforeAll(async () => {
  svc = await startService();
  work = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-plugin-"));
  programDir = path.join(work, "program");
  fs.mkdirSync(programDir);
  fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), program);
});

afterAll(async () => {
  for (const t of stacks) await t.dispose();
  await svc?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

it("previews with the checkout's development plugin, without the engine's PATH warning", async () => {
  const t = await createTestStack({ programDir, name: "dev", config: svc.config(), withoutNode: false });
  stacks.push(t);
  const preview = await t.preview();
  expect(preview.changeSummary).toMatchObject({ create: 5 });
  const printed = `${preview.stdout}\n${preview.stderr}\n${t.log()}`;
  expect(printed.match(PATH_PLUGIN_WARNING) ?? []).toEqual([]);
});
