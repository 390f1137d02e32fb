// The native face on the real engine: the SDK classes registered as `txmail:index:<Kind>` custom
// resources (stack config txmail:face native), served by the txmail plugin found on PATH. A sub
// account, its key, a domain and a route, and a route in a second account through an explicit
// provider, in one stack: up, no-op up (no write reaches the service), secrets encrypted in state,
// destroy leaves nothing in either account.
// Every kind's in-place update through the plugin is the acceptance run's (test/e2e/acceptance.test.ts).
import * as path from "node:path";
import { controlClient, serviceObjects } from "../../../support/control";
import { createTestStack, type TestStack } from "../harness";
import { NATIVE_DEFAULT_PROVIDER } from "../../../support/plugin";
import { startService, type TestService } from "../../../support/service";

jest.setTimeout(10 * 60_000);

const PROGRAM = path.join(__dirname, "..", "programs", "native");
let svc: TestService;
/** The second account, reached through the program's explicit provider. */
let second: TestService;
const stacks: TestStack[] = [];

/** The stack salt the default txmail provider keeps in its inputs in state. */
async function providerSalt(t: TestStack): Promise<unknown> {
  const { deployment } = JSON.parse(await t.exportText()) as {
    deployment: { resources: Array<{ urn: string; type: string; inputs?: Record<string, unknown> }> };
  };
  const providers = deployment.resources.filter((r) => r.type === "pulumi:providers:txmail");
  expect(providers.map((r) => r.urn.split("::").pop()).sort()).toEqual([NATIVE_DEFAULT_PROVIDER, "second"].sort());
  return providers.find((r) => r.urn.endsWith(`::${NATIVE_DEFAULT_PROVIDER}`))!.inputs?.__stackSalt;
}

/** The service's objects besides the account's own API keys (the program creates none). */
async function created(service: TestService): Promise<Array<{ kind: string; id: string }>> {
  return serviceObjects(await controlClient(service).dumpState()).filter((o) => o.kind !== "ApiKey");
}

beforeAll(async () => {
  svc = await startService();
  second = await startService();
});

afterAll(async () => {
  for (const t of stacks) await t.dispose();
  await second?.close();
  await svc?.close();
});

describe("the native face", () => {
  let t: TestStack;
  let outputs: Record<string, { value: unknown; secret: boolean }>;

  beforeAll(async () => {
    t = await createTestStack({
      programDir: PROGRAM,
      name: "native",
      config: {
        ...svc.config(),
        "txmail:face": { value: "native" },
        otherApiKey: { value: second.apiKey, secret: true },
        otherAccountId: { value: second.accountId },
        otherBaseUrl: { value: second.baseUrl },
      },
    });
    stacks.push(t);
  });

  it("creates a sub account, its key, a domain and a route as txmail:index resources, a route in the second account", async () => {
    const up = await t.up();
    outputs = up.outputs;
    // 4 + the second account's provider and route + the stack
    expect(up.summary.resourceChanges).toMatchObject({ create: 7 });
    const objects = await created(svc);
    expect(objects.map((o) => o.kind).sort()).toEqual(["Domain", "Route", "SubAccount", "SubAccountApiKey"]);
    expect(await created(second)).toEqual([{ kind: "Route", id: outputs.otherRouteId.value }]);
    expect(objects.map((o) => o.id)).not.toContain(outputs.otherRouteId.value);
    const types = (
      JSON.parse(await t.exportText()) as { deployment: { resources: Array<{ type: string }> } }
    ).deployment.resources
      .map((r) => r.type)
      .sort();
    expect(types).toEqual(
      expect.arrayContaining([
        "pulumi:providers:txmail",
        "txmail:index:Domain",
        "txmail:index:Route",
        "txmail:index:SubAccount",
        "txmail:index:SubAccountApiKey",
      ]),
    );
    // No dynamic resource at all: not the kinds, not the SDK's StackSalt (the provider keeps the salt).
    expect(types.filter((x) => x.startsWith("pulumi-nodejs:"))).toEqual([]);
    expect(outputs.keySecret.secret).toBe(true);
    expect(outputs.routeSecret.secret).toBe(true);
    expect(String(outputs.keySecret.value).length).toBeGreaterThan(8);
  });

  it("keeps the one-time secrets and the provider key encrypted in state", async () => {
    const exported = await t.exportText(false);
    for (const secret of [outputs.keySecret.value, outputs.routeSecret.value, svc.apiKey, second.apiKey]) {
      expect(exported).not.toContain(String(secret));
    }
    // They are there, as ciphertexts: the decrypted export holds them.
    const shown = await t.exportText(true);
    for (const secret of [outputs.keySecret.value, outputs.routeSecret.value]) expect(shown).toContain(String(secret));
  });

  it("a second up changes nothing and sends no write to the service", async () => {
    const control = controlClient(svc);
    await control.resetCounters();
    const saltBefore = await providerSalt(t);
    const up = await t.up();
    expect(up.summary.resourceChanges).toEqual({ same: 7 });
    expect((await control.counters()).writes).toBe(0);
    // The provider's stack salt was drawn once and is kept: the next creates derive the same keys.
    expect(saltBefore).toMatch(/^[0-9a-f]{32}$/);
    expect(await providerSalt(t)).toBe(saltBefore);
  });

  it("destroy leaves nothing at either account", async () => {
    await t.destroy();
    expect(await created(svc)).toEqual([]);
    expect(await created(second)).toEqual([]);
  });
});
