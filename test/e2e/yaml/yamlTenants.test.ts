// examples/yaml-tenants on the real engine against the emulator: a Pulumi YAML program (no npm
// project) run by the YAML language host setup builds, its Tenants built by the txmail plugin
// through Construct, its plain resource fed by a tenant's outputs. Up creates every object; a second
// up changes nothing and makes no write call; removing a tenant from the YAML deletes exactly its
// objects; destroy leaves none.
import * as fs from "node:fs";
import * as path from "node:path";
import { createTestStack, REPO_ROOT, type TestStack } from "../harness";
import { startService, type TestService } from "../../../support/service";
import { controlClient, serviceObjects } from "../../../support/control";
import { byKind } from "../../../support/stackState";

jest.setTimeout(15 * 60_000);

const example = path.join(REPO_ROOT, "examples", "yaml-tenants");
let svc: TestService;
let t: TestStack;
/** The emulator's own objects (its parent account's key), there before the program ran. */
let baseline: Set<string>;

/** The live sub accounts by display name → id. */
async function subAccountIds(): Promise<Record<string, string>> {
  const d = await controlClient(svc).dumpState();
  return Object.fromEntries(
    d.accounts.filter((a) => a.parent_account_id !== null && a.status !== "deleted").map((a) => [String(a.name), a.id]),
  );
}

/** Every live service object the program made, by kind. */
async function objects(): Promise<Record<string, string[]>> {
  return byKind(serviceObjects(await controlClient(svc).dumpState()).filter((o) => !baseline.has(o.id)));
}

interface Exported {
  deployment: { resources?: Array<{ urn: string; type: string; parent?: string }> };
}

beforeAll(async () => {
  svc = await startService();
  baseline = new Set(serviceObjects(await controlClient(svc).dumpState()).map((o) => o.id));
  t = await createTestStack({ programDir: example, name: "yaml", config: svc.config() });
});

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

describe("examples/yaml-tenants (Pulumi YAML, native provider)", () => {
  it("a preview before the first up builds the tenants and touches nothing", async () => {
    const control = controlClient(svc);
    await control.resetCounters();
    const preview = await t.preview();
    // The stack, 3 tenants with 3 sub accounts, 4 tenant keys, 2 domains, a route, a webhook, and
    // the CI key (the default provider is not counted).
    expect(preview.changeSummary).toEqual({ create: 16 });
    expect((await control.counters()).total).toBe(0);
  });

  it("up creates every tenant's objects and the plain resource fed by a tenant's outputs", async () => {
    // Nothing but YAML: no npm project where the program runs.
    const workDir = t.stack.workspace.workDir;
    expect(fs.readdirSync(workDir).filter((f) => /^(node_modules|package\.json|.*\.[jt]s)$/.test(f))).toEqual([]);
    const up = await t.up();
    expect(up.summary.result).toBe("succeeded");
    const ids = await subAccountIds();
    expect(Object.keys(ids).sort()).toEqual(["Acme Corp", "Globex", "Initech"]);
    const counts = Object.fromEntries(Object.entries(await objects()).map(([k, v]) => [k, v.length]));
    // Keys: three bootstrap keys, acme's app key, globex's CI key (the plain resource).
    expect(counts).toEqual({ SubAccount: 3, SubAccountApiKey: 5, Domain: 2, Route: 1, Webhook: 1 });

    // The plain resource lives in the sub account the tenant's output named.
    const d = await controlClient(svc).dumpState();
    expect(d.api_keys.find((k) => k.label === "globex ci")?.account_id).toBe(ids.Globex);
    expect(up.outputs.acmeSubAccountId?.value).toBe(ids["Acme Corp"]);
    expect(up.outputs.globexCiKey?.secret).toBe(true);
    // A tenant's parts are resources the program reads from: one, one of a map, and the summary.
    expect((up.outputs.acmeDnsRecords?.value as unknown[]).length).toBeGreaterThan(0);
    expect(up.outputs.acmeSupportRouteSecret?.secret).toBe(true);
    expect(String(up.outputs.acmeSupportRouteSecret?.value).length).toBeGreaterThan(10);
    expect(up.outputs.globexSummary?.value).toMatchObject({
      subAccountId: ids.Globex,
      domain: "mail.globex.example.org",
      webhooks: { bounces: expect.any(String) },
    });

    // The tenants are components of the plugin, their children native resources inside them.
    const state = JSON.parse(await t.exportText()) as Exported;
    const resources = state.deployment.resources ?? [];
    const tenants = resources.filter((r) => r.type === "txmail:index:Tenant");
    expect(tenants.map((r) => r.urn.split("::").pop()).sort()).toEqual(["acme", "globex", "initech"]);
    const acme = tenants.find((r) => r.urn.endsWith("::acme"))!;
    expect(
      resources
        .filter((r) => r.parent === acme.urn)
        .map((r) => r.type)
        .sort(),
    ).toEqual([
      "txmail:index:Domain",
      "txmail:index:Route",
      "txmail:index:SubAccount",
      "txmail:index:SubAccountApiKey",
      "txmail:index:SubAccountApiKey",
    ]);
    expect(resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/txmail:"))).toEqual([]);
    // The secrets are in the outputs (decrypted by the Automation API), never in state.
    const secretKey = String(up.outputs.globexCiKey?.value ?? "");
    expect(secretKey.length).toBeGreaterThan(10);
    const exported = await t.exportText();
    expect(exported).not.toContain(secretKey);
    expect(exported).not.toContain(String(up.outputs.acmeSupportRouteSecret?.value));
  });

  it("a second up changes nothing and makes no write call", async () => {
    const control = controlClient(svc);
    await control.resetCounters();
    const up = await t.up();
    expect(Object.keys(up.summary.resourceChanges ?? {})).toEqual(["same"]);
    expect((await control.counters()).writes).toBe(0);
  });

  it("removing a tenant from the YAML deletes exactly its objects", async () => {
    const before = await objects();
    const initech = (await subAccountIds()).Initech!;
    const initechKeys = (await controlClient(svc).dumpState()).api_keys
      .filter((k) => k.account_id === initech)
      .map((k) => k.id);
    expect(initechKeys).toHaveLength(1);

    const file = path.join(t.stack.workspace.workDir, "Pulumi.yaml");
    const text = fs.readFileSync(file, "utf8");
    const start = text.indexOf("  initech:\n");
    const end = text.indexOf("\n  # A plain resource", start);
    expect(start > 0 && end > start).toBe(true);
    fs.writeFileSync(file, text.slice(0, start) + text.slice(end + 1));

    const up = await t.up();
    // The component, its sub account and its bootstrap key; nothing else changes.
    expect(up.summary.resourceChanges).toEqual({ delete: 3, same: expect.any(Number) });
    const after = await objects();
    expect(after).toEqual({
      ...before,
      SubAccount: before.SubAccount!.filter((id) => id !== initech),
      SubAccountApiKey: before.SubAccountApiKey!.filter((id) => !initechKeys.includes(id)),
    });
  });

  it("destroy leaves no object in the service", async () => {
    const d = await t.destroy();
    expect(d.summary.result).toBe("succeeded");
    expect(await objects()).toEqual({});
    expect(await subAccountIds()).toEqual({});
  });
});
