// SubAccount, SubAccountApiKey and ApiKey through the real engine against the emulator:
// up → in-place update → no-op re-spelling → rotation → drift + refresh → suspension →
// destroy, asserting on the service's records; secrets never in plaintext in state or logs. Runs on
// both faces (dynamic and native provider): the same program, the same assertions — except a step
// the generic provider decides alone (a plain update), which runs on the dynamic face only. An
// object gone at the service, refreshed away and made again, is test/e2e/membersSuppressions.test.ts's
// ("after an out-of-band removal, refresh drops both from state and up recreates them"), and for
// a sub account's key and a route on both faces test/e2e/fleet/drift.test.ts's remediation.
import * as path from "node:path";
import { ApiKey, SubAccount, paths } from "../../provider/api";
import { TxmailApiError, createClient } from "../../provider/client";
import { controlClient, seqOf } from "../../support/control";
import { createTestStack, FACES, type TestStack } from "./harness";
import { onFace } from "./onFace";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(10 * 60_000);

const program = path.join(__dirname, "programs", "keys");
let svc: TestService;
let t: TestStack;

async function keysOnService(): Promise<ApiKey[]> {
  const all: ApiKey[] = [];
  for await (const k of svc.client.list(paths.apiKeys(svc.accountId), ApiKey)) all.push(k);
  return all.filter((k) => k.label !== "root" && !k.label.startsWith("emulator")); // the emulator's bootstrap key
}

async function subAccountsOnService(): Promise<SubAccount[]> {
  const all: SubAccount[] = [];
  for await (const s of svc.client.list(paths.subAccounts(svc.accountId), SubAccount)) all.push(s);
  return all;
}

async function setConfig(values: Record<string, unknown>) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) await t.stack.removeConfig(k);
    else await t.stack.setConfig(k, { value: typeof v === "string" ? v : JSON.stringify(v) });
  }
}

/** What the service answers a ping made with this key: 200 (it works) or the status that refused it. */
async function pingStatus(secret: string): Promise<number> {
  const c = createClient({ apiKey: secret, baseUrl: svc.baseUrl, rateLimit: false, retry: { maxAttempts: 1 } });
  try {
    await c.ping();
    return 200;
  } catch (err) {
    // Only an answer counts: a network error or timeout has no status and fails the test.
    if (err instanceof TxmailApiError && err.status !== undefined) return err.status;
    throw err;
  }
}

describe.each(FACES)("%s face", (face) => {
  beforeAll(async () => {
    svc = await startService();
    const base = (await keysOnService()).length;
    expect(base).toBe(0);
    t = await createTestStack({
      programDir: program,
      name: `keys-${face}`,
      face,
      config: {
        ...svc.config(),
        subName: { value: "Acme" },
        keyLabel: { value: "ci" },
        scopes: { value: JSON.stringify(["messages:send:all", "domains:read"]) },
        allow: { value: JSON.stringify(["127.0.0.1", "2001:DB8::/32"]) },
      },
    });
  });

  afterAll(async () => {
    await t?.dispose();
    await svc?.close();
  });

  describe("secret-bearing resources on the real engine", () => {
    let firstKeyId = "";
    let firstSecret = "";

    it("creates a sub account, its bootstrap key and an account key — once each", async () => {
      const up = await t.up();
      expect(up.summary.result).toBe("succeeded");
      const keys = await keysOnService();
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatchObject({ label: "ci", ip_allow_list: ["127.0.0.1/32", "2001:db8::/32"] });
      expect(await subAccountsOnService()).toHaveLength(1);

      firstKeyId = up.outputs.keyId.value;
      firstSecret = up.outputs.keySecret.value;
      expect(up.outputs.keySecret.secret).toBe(true);
      expect(up.outputs.bootstrapSecret.secret).toBe(true);
      expect(up.outputs.keyAllowList.value).toEqual(["127.0.0.1/32", "2001:db8::/32"]);
      expect(await pingStatus(firstSecret)).toBe(200);
      expect(await pingStatus(up.outputs.bootstrapSecret.value)).toBe(200);
    });

    it("keeps secrets out of state and logs; --show-secrets reveals a working key", async () => {
      const exported = await t.exportText(false);
      expect(exported).not.toContain(firstSecret);
      expect(exported).not.toContain(svc.apiKey);
      expect(t.log()).not.toContain(firstSecret);
      expect(t.log()).not.toContain(svc.apiKey);
      const revealed = await t.exportText(true);
      expect(revealed).toContain(firstSecret);
    });

    it("updates label and allow list in place, and treats a re-spelled equal list as no change", async () => {
      await setConfig({ keyLabel: "ci-renamed", allow: ["127.0.0.1/32", "2001:db8:0:0::/32", "127.0.0.1"] });
      const up = await t.up();
      expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
      expect(up.outputs.keyId.value).toBe(firstKeyId);
      const [key] = await keysOnService();
      expect(key.label).toBe("ci-renamed");

      const preview = await t.preview();
      expect(preview.changeSummary).not.toHaveProperty("update");
      expect(preview.changeSummary).not.toHaveProperty("replace");
    });

    // On the dynamic face the legacy string's replacement is test/e2e/upgrade.test.ts's, on a stack
    // 0.1.0 made (engine steps create-replacement … delete-replaced, the old key gone at the service).
    onFace(face, "native")("rotates: a new working key is created before the old one is deleted", async () => {
      await setConfig({ rotation: "2026-11" });
      const control = controlClient(svc);
      await control.clearRequests();
      const up = await t.up();
      expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
      const keys = await keysOnService();
      expect(keys.map((k) => k.id)).toEqual([up.outputs.keyId.value]);
      expect(up.outputs.keyId.value).not.toBe(firstKeyId);
      // The order, as the service saw it: the new key existed before the old one was deleted.
      const log = await control.requests();
      const created = seqOf(log, "POST", paths.apiKeys(svc.accountId), 201);
      const deleted = seqOf(log, "DELETE", paths.apiKey(svc.accountId, firstKeyId), 200);
      expect(created).toBeLessThan(deleted);
      expect(await pingStatus(up.outputs.keySecret.value)).toBe(200);
      expect(await pingStatus(firstSecret)).toBe(401);
    });

    it("shows drift on refresh and restores the declared values on up", async () => {
      const keyId = (await t.stack.outputs()).keyId.value as string;
      const secretBefore = (await t.stack.outputs()).keySecret.value as string;
      await svc.client.put(paths.apiKey(svc.accountId, keyId), { label: "changed-by-hand" }, ApiKey);
      const refresh = await t.refresh();
      expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
      // The one-time secret survives the refresh.
      expect((await t.stack.outputs()).keySecret.value).toBe(secretBefore);
      await t.up();
      expect((await keysOnService())[0].label).toBe("ci-renamed");
    });

    onFace(face, "dynamic")("suspends and reactivates the sub account", async () => {
      await setConfig({ suspended: "true", reason: "unpaid invoice" });
      let up = await t.up();
      expect(up.outputs.subAccountStatus.value).toBe("suspended");
      await setConfig({ suspended: "false" });
      up = await t.up();
      expect(up.outputs.subAccountStatus.value).toBe("active");
    });

    // The native face's destroy of every kind is the acceptance run's (test/e2e/acceptance.test.ts).
    onFace(face, "dynamic")("destroys everything on the service", async () => {
      await t.destroy();
      expect(await keysOnService()).toHaveLength(0);
      expect(await subAccountsOnService()).toHaveLength(0);
    });
  });
});
