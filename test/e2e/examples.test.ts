// Every example under examples/ runs against the emulator on the real engine, as a user would run
// it: minimal (up; an API key's destroy is keys.test.ts's), key rotation (new key first, old key
// gone after), adopt-existing (objects made outside Pulumi are adopted, not duplicated). The tenants example runs in
// tenants.test.ts, the Pulumi YAML one (yaml-tenants) in yaml/yamlTenants.test.ts; the CI workflows
// are checked in examples/ci by policy.test.ts's pack usage. Each example's first up runs under the
// policy pack's defaults and gets no finding at all (issue 17: quiet by default; the rest of that
// story is policy.test.ts's), in the same engine run rather than a preview of its own.
import * as path from "node:path";
import { parseViolations } from "../../policy/tools/previewComment";
import { ApiKey, SubAccount, Webhook, paths } from "../../provider/api";
import { controlClient, seqOf } from "../../support/control";
import { createTestStack, REPO_ROOT, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(15 * 60_000);

const example = (name: string) => path.join(REPO_ROOT, "examples", name);
const pack = path.join(REPO_ROOT, "policy");
/** An up under the policy pack's defaults, which must find nothing to say about an example. */
async function quietUp(t: TestStack) {
  const up = await t.up({ policyPacks: [pack] });
  expect(parseViolations(up.stdout).map((v) => `${v.level} ${v.policy} ${v.resource}`)).toEqual([]);
  return up;
}
let svc: TestService;
const stacks: TestStack[] = [];

beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  for (const t of stacks) await t.dispose();
  await svc?.close();
});

async function stack(name: string, config: Record<string, { value: string }> = {}): Promise<TestStack> {
  const t = await createTestStack({ programDir: example(name), name, config: { ...svc.config(), ...config } });
  stacks.push(t);
  return t;
}

const keyIds = async (sub?: string) => {
  const out: string[] = [];
  const p = sub ? paths.subAccountApiKeys(svc.accountId, sub) : paths.apiKeys(svc.accountId);
  for await (const k of svc.client.list(p, ApiKey)) out.push(k.id);
  return out;
};

test("minimal: one key created", async () => {
  const before = await keyIds();
  const t = await stack("minimal");
  const up = await quietUp(t);
  expect(up.outputs.secretKey.secret).toBe(true);
  expect((await keyIds()).sort()).toEqual([...before, up.outputs.keyId.value as string].sort());
});

test("key-rotation: a new rotation value creates the new key before deleting the old one", async () => {
  const t = await stack("key-rotation");
  const first = await quietUp(t);
  const oldId = first.outputs.keyId.value as string;
  const sub = (await controlClient(svc).dumpState()).api_keys.find((k) => k.id === oldId)!.account_id;
  await t.stack.setConfig("rotation", { value: "2026-12" });
  const control = controlClient(svc);
  await control.clearRequests();
  const second = await t.up();
  const newId = second.outputs.keyId.value as string;
  expect(newId).not.toBe(oldId);
  expect(second.outputs.secretKey.value).not.toBe(first.outputs.secretKey.value);
  expect(await keyIds(sub)).toEqual([newId]);
  // The order, as the service saw it (Pulumi prints "created replacement" for either order).
  const log = await control.requests();
  expect(seqOf(log, "POST", paths.subAccountApiKeys(svc.accountId, sub), 201)).toBeLessThan(
    seqOf(log, "DELETE", paths.subAccountApiKey(svc.accountId, sub, oldId), 200),
  );
});

test("adopt-existing: objects made outside Pulumi are adopted, updated in place, never duplicated", async () => {
  const sub = (
    await svc.client.post(
      paths.subAccounts(svc.accountId),
      { name: "Legacy Tenant", website: "legacy.example.com" },
      SubAccount,
    )
  ).data;
  const hook = (
    await svc.client.post(
      paths.webhooks(svc.accountId),
      { name: "old name", url: "https://legacy.example.com/hooks", on_bounced: true, scope: "global" },
      Webhook,
    )
  ).data;
  const t = await stack("adopt-existing", { subAccountId: { value: sub.id }, webhookId: { value: hook.id } });
  const control = controlClient(svc);
  await control.resetCounters();
  const up = await quietUp(t);
  expect(up.outputs.subAccountId.value).toBe(sub.id);
  expect(up.outputs.adoptedWebhook.value).toBe(hook.id);
  // No create call: the webhook's name converged to the program's with one update.
  const counters = await control.counters();
  expect(Object.keys(counters.endpoints).filter((e) => e.startsWith("POST"))).toEqual([]);
  expect((await svc.client.get(paths.webhook(svc.accountId, hook.id), Webhook)).name).toBe("legacy events");
  const again = await t.up();
  expect(Object.keys(again.summary.resourceChanges ?? {})).toEqual(["same"]);
});
