// AccountMember and Suppression through the real engine against the emulator: create, change →
// replacement (delete first: the same email / address cannot exist twice), out-of-band removal →
// refresh → recreate, expiry → refresh → recreated only while declared; and the owner, whom the
// service never removes, adopted, then refused with a message that says so. A member, a suppression
// and a domain removed out of band and re-made under the same email, address and name by someone
// else: the stack's delete leaves those and says so (provider/core/operations/fetchRecord.ts; every
// outcome of it, in process: test/conformance/core/naturalKeys.test.ts). A second up that
// changes nothing, and destroy, of both kinds are test/e2e/tenantMembers.test.ts's (a Tenant's
// members and suppression: "changes nothing on a second up", "destroys the members and the
// suppression with the tenant").
import * as path from "node:path";
import { AccountMember, Domain, MemberList, Suppression, SuppressionsCreated, paths } from "../../provider/api";
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
    config: {
      ...svc.config(),
      expiresAt: { value: new Date(Date.now() + 2 * DAY).toISOString() },
      domain: { value: "true" },
    },
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
    expect(quiet.summary.resourceChanges).toEqual({ same: 4 }); // stack, stack salt, member, domain
    expect((await control.requests()).requests.filter((r) => r.method === "POST")).toEqual([]);
    await t.stack.setConfig("suppression", { value: "true" });
    const later = await inDays(30);
    await t.stack.setConfig("expiresAt", { value: later });
    const up = await t.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    const [s] = await suppressions();
    expect(Date.parse(s!.expires_at)).toBe(Date.parse(later));
  });

  it("leaves objects re-made by someone else under the same names, and adopts the owner", async () => {
    // The stack's member, suppression and domain removed out of band; someone else adds the same
    // person (the same user id, a later createdAt), suppresses the same address, adds the same domain.
    const acct = svc.accountId;
    const [m] = await managed();
    const [s] = await suppressions();
    await svc.client.delete(paths.member(acct, m!.user_id));
    await svc.client.delete(paths.suppressionByAddress(acct, s!.email, s!.domain));
    await svc.client.delete(paths.domain(acct, "readd.example.com"));
    const body = { email: s!.email, domain: s!.domain, expires_at: s!.expires_at };
    const theirs = {
      member: (
        await svc.client.post(paths.members(acct), { email: "dev@corp.example.com", role: "Analyst" }, AccountMember)
      ).data,
      suppression: (await svc.client.post(paths.suppressions(acct), body, SuppressionsCreated)).data.data[0]!,
      domain: (await svc.client.post(paths.domains(acct), { domain: "readd.example.com" }, Domain)).data,
    };
    expect(theirs.member.user_id).toBe(m!.user_id);

    // The three leave the program: this up deletes them from state, not theirs; the owner is adopted.
    await t.stack.setAllConfig({
      member: { value: "false" },
      suppression: { value: "false" },
      domain: { value: "false" },
      adoptOwner: { value: await owner() },
    });
    const logged = t.log().length;
    const adopted = await t.up();
    expect(adopted.outputs.ownerId.value).toBe(await owner());
    expect(adopted.summary.resourceChanges).toMatchObject({ delete: 3 });
    expect(await managed()).toEqual([theirs.member]);
    expect((await suppressions()).map((x) => x.id)).toEqual([theirs.suppression.id]);
    expect((await svc.client.get(paths.domain(acct, "readd.example.com"), Domain)).id).toBe(theirs.domain.id);
    const said = t.log().slice(logged);
    for (const [kind, id] of [
      ["AccountMember", theirs.member.user_id],
      ["Suppression", theirs.suppression.id],
      ["Domain", theirs.domain.id],
    ])
      expect(said).toMatch(
        new RegExp(
          `another ${kind} is in its place \\(${id}[^)]*\\), which this stack did not make: it was not deleted`,
        ),
      );

    // Theirs, removed by their owner.
    await svc.client.delete(paths.member(acct, theirs.member.user_id));
    await svc.client.delete(paths.suppressionByAddress(acct, s!.email, s!.domain));
    await svc.client.delete(paths.domain(acct, "readd.example.com"));
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
