// The package's data functions from Pulumi YAML (`fn::invoke`), served by the native plugin's
// Invoke against the emulator: a program looks up objects made in the emulator beforehand with
// all five functions and exports what they answer, which must be the emulator's objects. A look-up
// with a bad argument fails the preview naming the function, the field and the rule. The guide's
// `fn::invoke` example (docs/guide/native-provider.md#data-functions) runs as written.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  ApiKey,
  ApiKeyWithSecret,
  Domain,
  RouteWithSecret,
  SubAccount,
  SubAccountUsage,
  Webhook,
  WebhookWithSecret,
  paths,
} from "../../../provider/api";
import { keysToCamel } from "../../../provider/core/casing";
import { createTestStack, REPO_ROOT, type TestStack } from "../harness";
import { startService, type TestService } from "../../../support/service";

jest.setTimeout(10 * 60_000);

const program = `name: yaml-invoke
runtime: yaml
config:
  routeId: { type: string }
variables:
  usage:
    fn::invoke:
      function: txmail:index:getSubAccountUsage
      arguments: {}
  domain:
    fn::invoke:
      function: txmail:index:lookupDomain
      arguments: { domain: mail.invoke.example.com }
  routeByName:
    fn::invoke:
      function: txmail:index:lookupRoute
      arguments: { name: support }
  routeById:
    fn::invoke:
      function: txmail:index:lookupRoute
      arguments:
        id: \${routeId}
  webhook:
    fn::invoke:
      function: txmail:index:lookupWebhook
      arguments: { name: events }
  apiKey:
    fn::invoke:
      function: txmail:index:lookupApiKey
      arguments: { label: ci }
outputs:
  usage: \${usage}
  currency:
    fn::invoke:
      function: txmail:index:getSubAccountUsage
      arguments: {}
      return: currency
  domain: \${domain}
  routeByName: \${routeByName}
  routeById: \${routeById}
  webhook: \${webhook}
  apiKey: \${apiKey}
`;

const badProgram = `name: yaml-invoke-bad
runtime: yaml
variables:
  domain:
    fn::invoke:
      function: txmail:index:lookupDomain
      arguments: { domain: "" }
outputs:
  domain: \${domain}
`;

let svc: TestService;
let t: TestStack | undefined;
let bad: TestStack | undefined;
let guideStack: TestStack | undefined;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await t?.dispose();
  await bad?.dispose();
  await guideStack?.dispose();
  await svc?.close();
});

/**
 * An object as a stack output shows what the function answered: camelCased, and without the
 * properties the service left null (Pulumi YAML drops a null property from an object).
 */
const asAnswered = (record: object) =>
  JSON.parse(JSON.stringify(keysToCamel(record), (_k, v: unknown) => (v === null ? undefined : v))) as Record<
    string,
    unknown
  >;

function writeProgram(text: string, prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), text);
  return dir;
}

it("fn::invoke of each of the five data functions answers with the emulator's objects", async () => {
  const a = svc.accountId;
  const c = svc.client;
  await c.post(paths.subAccounts(a), { name: "Acme", website: "acme.example.com" }, SubAccount);
  await c.post(paths.domains(a), { domain: "mail.invoke.example.com" }, Domain);
  // Two routes named alike: the look-up by name answers the first, by id the one asked for.
  const first = (
    await c.post(paths.routes(a), { name: "support", url: "https://x.example.com/a", recipient: "" }, RouteWithSecret)
  ).data;
  const second = (
    await c.post(paths.routes(a), { name: "support", url: "https://x.example.com/b", recipient: "" }, RouteWithSecret)
  ).data;
  const hook = (
    await c.post(
      paths.webhooks(a),
      { name: "events", url: "https://x.example.com/hooks", scope: "global", on_bounced: true },
      WebhookWithSecret,
    )
  ).data;
  const key = (await c.post(paths.apiKeys(a), { label: "ci", scopes: ["messages:send:all"] }, ApiKeyWithSecret)).data;

  t = await createTestStack({
    programDir: writeProgram(program, "txmail-yaml-invoke-"),
    name: "yaml-invoke",
    config: { ...svc.config(), routeId: { value: second.id } },
  });
  const up = await t.up();
  expect(up.summary.result).toBe("succeeded");
  const out = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value])) as Record<string, unknown>;

  // What the emulator holds now (reads carry no one-time secrets).
  const { secret: _s1, ...firstRoute } = first;
  const { secret: _s2, ...secondRoute } = second;
  const { secret: _s3, ...webhook } = hook;
  expect(out).toEqual({
    usage: asAnswered(await c.get(paths.subAccountUsage(a), SubAccountUsage)),
    currency: "usd",
    domain: asAnswered(await c.get(paths.domain(a, "mail.invoke.example.com"), Domain)),
    routeByName: asAnswered(firstRoute),
    routeById: asAnswered(secondRoute),
    webhook: asAnswered(await c.get(paths.webhook(a, hook.id), Webhook)),
    apiKey: asAnswered(await c.get(paths.apiKey(a, key.id), ApiKey)),
  });
  expect(out.webhook).toMatchObject(asAnswered(webhook));
  expect((out.usage as { subAccounts: unknown[] }).subAccounts).toEqual([expect.objectContaining({ name: "Acme" })]);
  // The look-ups' results hold no secret, and the provider's key is not in the engine's output.
  expect(Object.values(up.outputs).map((o) => o.secret)).not.toContain(true);
  expect(t.log()).not.toContain(svc.apiKey);
  expect(await t.exportText()).not.toContain(svc.apiKey);
});

it("a look-up with a bad argument fails the preview, naming the function, the field and the rule", async () => {
  bad = await createTestStack({
    programDir: writeProgram(badProgram, "txmail-yaml-invoke-bad-"),
    name: "yaml-invoke-bad",
    config: svc.config(),
  });
  await expect(bad.preview()).rejects.toThrow(
    /txmail:index:lookupDomain invoke failed: Too small: .*1 characters \(domain\)/,
  );
  expect(bad.log()).not.toMatch(/Cannot read properties|TypeError|UNIMPLEMENTED/);
});

/** The ```yaml block with `fn::invoke` under "Data functions" in docs/guide/native-provider.md. */
function guideInvokeYaml(): string {
  const guide = fs.readFileSync(path.join(REPO_ROOT, "docs/guide/native-provider.md"), "utf8");
  const section = guide.slice(guide.indexOf("## Data functions"));
  const block = /```yaml\n([\s\S]*?)\n```/.exec(section);
  if (!block || !block[1]!.includes("fn::invoke"))
    throw new Error("docs/guide/native-provider.md has no fn::invoke example under Data functions");
  return block[1]! + "\n";
}

it("the guide's fn::invoke example (docs/guide/native-provider.md#data-functions) runs as written", async () => {
  // The routes named `support` made by the first test: the look-up answers the first.
  guideStack = await createTestStack({
    programDir: writeProgram(guideInvokeYaml(), "txmail-yaml-invoke-guide-"),
    name: "yaml-invoke-guide",
    config: svc.config(),
  });
  const up = await guideStack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(up.outputs.supportRouteUrl?.value).toBe("https://x.example.com/a");
  expect(up.outputs.currency?.value).toBe("usd");
});
