// AccountMember and Suppression through the real engine against the emulator: create, change →
// replacement (delete first: the same email / address cannot exist twice), out-of-band removal →
// refresh → recreate, expiry → refresh → recreated only while declared; and the owner, whom the
// service never removes, adopted, then refused with a message that says so. A second up that
// changes nothing, and destroy, of both kinds are test/e2e/tenantMembers.test.ts's (a Tenant's
// members and suppression: "changes nothing on a second up", "destroys the members and the
// suppression with the tenant").
import * as path from "node:path";
import { AccountMember, MemberList, Suppression, paths } from "../../provider/api";
import { controlClient, seqOf } from "../../support/control";
import { createTestStack, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(10 * 60_000);

const DAY = 24 * 3600_000;
let svc: TestService;
let t: TestStack;

const members = async (): Promise<AccountMember[]> =>
  (await svc.client.get(paths.members(svc.accountId), MemberList)).data;
const suppressions = async (): Promise<Suppression[]> => {
  const out: Suppression[] = [];
  for await (const s of svc.client.list(paths.suppressions(svc.accountId), Suppression)) out.push(s);
  return out;
};
const owner = async () =>
  String((await controlClient(svc).dumpState()).accounts.find((a) => a.id === svc.accountId)!.owner_user_id);
/** Members other than the owner (every account has its owner as a member). */
const managed = async () => {
  const o = await owner();
  return (await members()).filter((m) => m.user_id !== o);
};
const inDays = async (d: number) => new Date((await controlClient(svc).clock()).nowMs + d * DAY).toISOString();

beforeAll(async () => {
  svc = await startService();
  t = await createTestStack({
    programDir: path.join(__dirname, "programs", "members"),
    name: "members",
    config: { ...svc.config(), expiresAt: { value: new Date(Date.now() + 2 * DAY).toISOString() } },
  });
});

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

describe("AccountMember and Suppression on the real engine", () => {
  let first: Record<string, { value: unknown }>;

  it("creates the member and the suppression", async () => {
    const up = await t.up();
    first = up.outputs;
    expect(await managed()).toEqual([expect.objectContaining({ user_id: first.memberId.value, role: "Developer" })]);
    expect(await suppressions()).toEqual([
      expect.objectContaining({
        id: first.suppressionId.value,
        email: "blocked@customer.example.com",
        domain: "mail.example.com",
        reason: "compliance list",
      }),
    ]);
  });

  it("replaces on a change, removing the old one first (role; reason)", async () => {
    await t.stack.setConfig("role", { value: "Analyst" });
    await t.stack.setConfig("reason", { value: "legal hold" });
    const control = controlClient(svc);
    await control.clearRequests();
    const up = await t.up();
    expect(up.summary.resourceChanges).toMatchObject({ replace: 2 });
    const [m] = await managed();
    expect(m).toMatchObject({ role: "Analyst", user_id: first.memberId.value }); // one user per email
    const [s] = await suppressions();
    expect(s).toMatchObject({ reason: "legal hold" });
    expect(s!.id).not.toBe(first.suppressionId.value);
    const log = await control.requests();
    const acct = svc.accountId;
    expect(seqOf(log, "DELETE", paths.member(acct, String(first.memberId.value)), 200)).toBeLessThan(
      seqOf(log, "POST", paths.members(acct), 201),
    );
    // The request log keeps paths without their query (the delete is addressed by ?email=&domain=).
    expect(seqOf(log, "DELETE", paths.suppressions(acct), 200)).toBeLessThan(
      seqOf(log, "POST", paths.suppressions(acct), 201),
    );
  });

  it("after an out-of-band removal, refresh drops both from state and up recreates them", async () => {
    const acct = svc.accountId;
    const [m] = await managed();
    await svc.client.delete(paths.member(acct, m!.user_id));
    await svc.client.delete(paths.suppressionByAddress(acct, "blocked@customer.example.com", "mail.example.com"));
    const refresh = await t.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 2 });
    const up = await t.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    expect(await managed()).toEqual([expect.objectContaining({ role: "Analyst" })]);
    expect(await suppressions()).toHaveLength(1);
  });

  it("an expired suppression reads as gone; the next up recreates it only while the program declares it", async () => {
    await controlClient(svc).advanceClock(3 * DAY);
    expect(await suppressions()).toHaveLength(0);
    const refresh = await t.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    await t.stack.setConfig("suppression", { value: "false" });
    const control = controlClient(svc);
    await control.clearRequests();
    const quiet = await t.up();
    expect(quiet.summary.resourceChanges).toEqual({ same: 3 }); // stack, stack salt, member
    expect((await control.requests()).requests.filter((r) => r.method === "POST")).toEqual([]);
    await t.stack.setConfig("suppression", { value: "true" });
    const later = await inDays(30);
    await t.stack.setConfig("expiresAt", { value: later });
    const up = await t.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    const [s] = await suppressions();
    expect(Date.parse(s!.expires_at)).toBe(Date.parse(later));
  });

  it("adopts the owner, and refuses to remove them with a message naming the owner rule", async () => {
    // The member and the suppression leave the program: deleted by this up, the owner adopted.
    await t.stack.setConfig("member", { value: "false" });
    await t.stack.setConfig("suppression", { value: "false" });
    await t.stack.setConfig("adoptOwner", { value: await owner() });
    const adopted = await t.up();
    expect(adopted.outputs.ownerId.value).toBe(await owner());
    expect(await managed()).toEqual([]);
    expect(await suppressions()).toEqual([]);
    await t.stack.removeConfig("adoptOwner");
    const err = await t.up().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/account owner/);
    expect(err?.message).toMatch(/pulumi state delete/);
    expect((await members()).map((m) => m.user_id)).toEqual([await owner()]);
  });
});
