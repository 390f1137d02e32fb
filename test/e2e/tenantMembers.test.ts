// A Tenant with members and a suppression on the real engine: they are created in the sub account
// with the tenant's bootstrap key, which gains exactly the scopes they need; a second up is a no-op;
// a role change replaces one member (delete first); destroy removes them with the tenant.
import * as path from "node:path";
import { ApiKey, MemberList, Suppression, paths } from "../../provider/api";
import { controlClient, seqOf } from "../../support/control";
import { createTestStack, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(10 * 60_000);

let svc: TestService;
let t: TestStack;

beforeAll(async () => {
  svc = await startService();
  t = await createTestStack({
    programDir: path.join(__dirname, "programs", "tenant-members"),
    name: "tenant-members",
    config: { ...svc.config(), expiresAt: { value: new Date(Date.now() + 30 * 24 * 3600_000).toISOString() } },
  });
});

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

/** The sub account's members and suppressions, as the service's state holds them. */
async function tenantState(sub: string) {
  const d = await controlClient(svc).dumpState();
  const owner = d.accounts.find((a) => a.id === sub)?.owner_user_id;
  return {
    members: d.members.filter((m) => m.account_id === sub && m.user_id !== owner),
    suppressions: d.suppressions.filter((s) => s.account_id === sub),
  };
}

describe("a Tenant with members on the real engine", () => {
  let first: Record<string, { value: unknown }>;

  it("creates the members and the suppression in the sub account, with the bootstrap key", async () => {
    const up = await t.up();
    first = up.outputs;
    const sub = String(first.subAccountId.value);
    const { members, suppressions } = await tenantState(sub);
    expect(members.map((m) => [m.email, m.role, m.name]).sort()).toEqual([
      ["alice@acme.example.com", "Developer", "Alice"],
      ["bob@acme.example.com", "Billing Manager", null],
    ]);
    expect(members.find((m) => m.email.startsWith("alice"))!.user_id).toBe(first.alice.value);
    expect(suppressions).toEqual([expect.objectContaining({ email: "blocked@customer.example.com", domain: null })]);
    // Nothing reached the parent account.
    const parentMembers = (await svc.client.get(paths.members(svc.accountId), MemberList)).data;
    expect(parentMembers.some((m) => m.user_id === first.alice.value)).toBe(false);
    const parentSuppressions: Suppression[] = [];
    for await (const s of svc.client.list(paths.suppressions(svc.accountId), Suppression)) parentSuppressions.push(s);
    expect(parentSuppressions).toEqual([]);
    // The bootstrap key gained the members' and suppressions' scopes, and not the wipe.
    const key = await svc.client.get(
      paths.subAccountApiKey(svc.accountId, sub, String(first.bootstrapKeyId.value)),
      ApiKey,
    );
    expect(key.scopes).toEqual(
      expect.arrayContaining([
        "accounts:members:read",
        "accounts:members:add",
        "accounts:members:remove",
        "suppressions:read",
        "suppressions:write",
        "suppressions:delete",
      ]),
    );
    expect(key.scopes).not.toContain("suppressions:wipe");
    expect(first.summary.value).toMatchObject({ members: { alice: first.alice.value, bob: first.bob.value } });
  });

  it("changes nothing on a second up", async () => {
    const up = await t.up();
    expect(up.summary.resourceChanges).toEqual({ same: expect.any(Number) });
  });

  it("replaces a member whose role changes, removing the old membership first", async () => {
    await t.stack.setConfig("aliceRole", { value: "Administrator" });
    const control = controlClient(svc);
    await control.clearRequests();
    const up = await t.up();
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    const sub = String(first.subAccountId.value);
    const { members } = await tenantState(sub);
    expect(members.find((m) => m.email.startsWith("alice"))!.role).toBe("Administrator");
    const log = await control.requests();
    expect(seqOf(log, "DELETE", paths.member(sub, String(first.alice.value)), 200)).toBeLessThan(
      seqOf(log, "POST", paths.members(sub), 201),
    );
  });

  it("removes every member and the suppression when the tenant stops declaring them", async () => {
    const sub = String(first.subAccountId.value);
    await t.stack.setConfig("people", { value: "none" });
    // The engine updates the key before it deletes the removed objects: the key keeps the removed
    // scopes until its next update (deferScopeRemoval), so the deletes are still allowed. That next
    // update narrowing the key is tenantScopes.test.ts's (the same key update, for a route's scopes);
    // which scopes members and suppressions need is test/unit/api/managementScopes.test.ts's.
    const removal = await t.up();
    expect(removal.summary.resourceChanges).toMatchObject({ delete: 3 });
    expect(await tenantState(sub)).toEqual({ members: [], suppressions: [] });
    await t.stack.setConfig("people", { value: "all" });
    expect((await t.up()).summary.resourceChanges).toMatchObject({ create: 3 });
  });

  it("destroys the members and the suppression with the tenant", async () => {
    const sub = String(first.subAccountId.value);
    await t.destroy();
    const { members, suppressions } = await tenantState(sub);
    expect(members).toEqual([]);
    expect(suppressions).toEqual([]);
  });
});
