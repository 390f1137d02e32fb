// The main job, the tenants-from-yaml example, on the real engine against the emulator: the example
// tenants are provisioned in one run; a second up changes nothing and makes no write call; removing
// a tenant from the file deletes exactly its resources, children before the sub account; renaming
// one (its old name in formerNames) keeps its objects.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ApiKey, SubAccount, paths } from "../../provider/api";
import { createTestStack, FACES, REPO_ROOT, type TestStack } from "./harness";
import { onFace } from "./onFace";
import { startService, type TestService } from "../../support/service";
import { controlClient } from "../../support/control";

jest.setTimeout(15 * 60_000);

const example = path.join(REPO_ROOT, "examples", "tenants-from-yaml");
let svc: TestService;
let t: TestStack;
let tenantsFile: string;

async function subAccounts(): Promise<SubAccount[]> {
  const out: SubAccount[] = [];
  for await (const s of svc.client.list(paths.subAccounts(svc.accountId), SubAccount)) out.push(s);
  return out;
}

describe.each(FACES)("%s face", (face) => {
  beforeAll(async () => {
    svc = await startService();
    tenantsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "txmail-tenants-")), "tenants.yaml");
    fs.copyFileSync(path.join(example, "tenants.yaml"), tenantsFile);
    t = await createTestStack({
      programDir: example,
      name: `tenants-${face}`,
      face,
      config: { ...svc.config(), tenantsFile: { value: tenantsFile } },
    });
  });

  afterAll(async () => {
    await t?.dispose();
    await svc?.close();
  });

  describe("tenants from a YAML file", () => {
    it("provisions every example tenant in one run", async () => {
      const up = await t.up();
      expect(up.summary.result).toBe("succeeded");
      expect((await subAccounts()).map((s) => s.name).sort()).toEqual(["Acme Corp", "Globex", "Initech"]);
      const summary = up.outputs.summary.value as Record<string, Record<string, unknown>>;
      expect(Object.keys(summary).sort()).toEqual(["acme", "globex", "initech"]);
      expect(summary.acme).toMatchObject({ domain: "mail.acme.example.com", status: "active" });
      expect(up.outputs.bootstrapKeys.secret).toBe(true);
      // Each tenant's bootstrap key authenticates as its sub account.
      const acme = (await subAccounts()).find((s) => s.name === "Acme Corp")!;
      const keys: ApiKey[] = [];
      for await (const k of svc.client.list(paths.subAccountApiKeys(svc.accountId, acme.id), ApiKey)) keys.push(k);
      expect(keys.map((k) => k.label).sort()).toEqual(["acme app", "acme bootstrap"]);
    });

    it("reports no changes on a second up and makes no write call", async () => {
      const control = controlClient(svc);
      await control.resetCounters();
      const up = await t.up();
      expect(Object.keys(up.summary.resourceChanges ?? {})).toEqual(["same"]);
      expect((await control.counters()).writes).toBe(0);
    });

    it("renaming a tenant with its old name in formerNames keeps every object (aliases)", async () => {
      const before = (await subAccounts()).map((s) => s.id).sort();
      const text = fs.readFileSync(tenantsFile, "utf8");
      fs.writeFileSync(
        tenantsFile,
        text.replace("  - name: globex\n", "  - name: globex-corp\n    formerNames: [globex]\n"),
      );
      const control = controlClient(svc);
      await control.resetCounters();
      const up = await t.up();
      // The bootstrap key's label follows the name ("globex-corp bootstrap"); nothing is created,
      // deleted or replaced, and the summary is keyed by the new name.
      expect(Object.keys(up.summary.resourceChanges ?? {}).sort()).toEqual(["same", "update"]);
      expect(up.summary.resourceChanges?.update).toBe(1);
      expect((await control.counters()).writes).toBe(1);
      expect((await subAccounts()).map((s) => s.id).sort()).toEqual(before);
      expect(Object.keys(up.outputs.summary.value as object).sort()).toEqual(["acme", "globex-corp", "initech"]);
    });

    // The engine deletes what the program stopped declaring, through the generic provider's delete:
    // one face. On the native face, removing a tenant is test/e2e/fleet/fleet.test.ts's "removing
    // one tenant and adding one changes only their shard, and writes only their objects".
    onFace(face, "dynamic")("removing a tenant from the file deletes exactly its resources", async () => {
      const text = fs.readFileSync(tenantsFile, "utf8");
      fs.writeFileSync(tenantsFile, text.slice(0, text.indexOf("  - name: initech")));
      const up = await t.up();
      // initech: sub account, bootstrap key, and the component itself.
      expect(up.summary.resourceChanges).toMatchObject({ delete: 3 });
      expect((await subAccounts()).map((s) => s.name).sort()).toEqual(["Acme Corp", "Globex"]);
    });

    // The order comes from the Tenant component's dependencies, the same code on both faces; the
    // native face's destroy of every kind is the acceptance run's (test/e2e/acceptance.test.ts).
    onFace(face, "dynamic")(
      "destroy removes every object of every tenant, children before the sub account",
      async () => {
        await t.destroy();
        const d = await controlClient(svc).dumpState();
        expect(d.accounts.filter((a) => a.parent_account_id !== null && a.status !== "deleted")).toEqual([]);
        expect([d.domains, d.routes, d.webhooks, d.smtp_credentials].map((xs) => xs.length)).toEqual([0, 0, 0, 0]);
        expect(d.api_keys.filter((k) => k.account_id !== svc.accountId)).toEqual([]);
      },
    );
  });
});
