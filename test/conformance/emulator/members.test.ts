// Account members (docs/contract/endpoints/members.md), their removal restrictions included: list (not paginated), add (409 for an existing member, idempotent), remove (not yourself,
// never the owner), on the parent and on a sub account with its own key.
import { type Emu, expectError, makeKey, makeSub, start, uniq } from "./helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const add = (body: unknown, o: { key?: string; idem?: string; account?: string } = {}) =>
  emu.req("POST", emu.acct("/members", o.account), { body, key: o.key, idem: o.idem });
const members = async (account?: string, key?: string) =>
  (await emu.req("GET", emu.acct("/members", account), { key })).body as { object: string; data: any[] };
const ownerOf = async (accountId: string) =>
  (await emu.control.dumpState()).accounts.find((a) => a.id === accountId)!.owner_user_id as string;

describe("Account members", () => {
  test("Members: a record is {user_id, account_id, role, created_at, updated_at}; no email, no name", async () => {
    const r = await add({ email: `${uniq("dev")}@corp.example.com`, name: "Dev One", role: "Developer" });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(["account_id", "created_at", "role", "updated_at", "user_id"]);
    expect(r.body).toMatchObject({ account_id: emu.accountId, role: "Developer" });
  });

  test("Members: the list is {object: list, data} without pagination and includes the owner", async () => {
    const list = await members();
    expect(Object.keys(list).sort()).toEqual(["data", "object"]);
    expect(list.object).toBe("list");
    const owner = await ownerOf(emu.accountId);
    expect(list.data.find((m) => m.user_id === owner)).toMatchObject({ role: "Administrator" });
  });

  test("Members: adding an address that is already a member is a terminal 409 (no retry headers)", async () => {
    const email = `${uniq("dup")}@corp.example.com`;
    expect((await add({ email, role: "Analyst" })).status).toBe(201);
    const again = await add({ email: email.toUpperCase(), role: "Developer" });
    expectError(again, 409, /already a member/);
    expect(again.headers.get("retry-after")).toBeNull();
    expect(again.headers.get("idempotent-replayed")).toBeNull();
  });

  test("Members: POST /members is idempotent (replay of the 201, then of a stored 409)", async () => {
    const idem = uniq("idem");
    const body = { email: `${uniq("idem")}@corp.example.com`, role: "Billing Manager" };
    const first = await add(body, { idem });
    expect(first.status).toBe(201);
    const replay = await add(body, { idem });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect((await members()).data.filter((m) => m.user_id === first.body.user_id)).toHaveLength(1);
    const idem2 = uniq("idem");
    expectError(await add(body, { idem: idem2 }), 409);
    const stored = await add(body, { idem: idem2 });
    expectError(stored, 409);
    expect(stored.headers.get("idempotent-replayed")).toBe("true");
  });

  test("Members: bad input is a 400 naming the field and the rule", async () => {
    expectError(await add({ email: "not-an-address", role: "Developer" }), 400, /^email: /);
    expectError(await add({ email: "a@corp.example.com", role: "Owner" }), 400, /^role: /);
    expectError(await add({ email: "a@corp.example.com" }), 400, /^role: /);
    expectError(
      await add({ email: "a@corp.example.com", role: "Developer", extra: 1 }),
      400,
      /extra: unrecognized field/,
    );
  });

  test("Members: remove deletes the membership; a second remove is a 404; a role change is remove + add", async () => {
    const email = `${uniq("rm")}@corp.example.com`;
    const m = (await add({ email, role: "Developer" })).body;
    const del = await emu.req("DELETE", emu.acct(`/members/${m.user_id}`));
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: "Operation completed successfully" });
    expectError(await emu.req("DELETE", emu.acct(`/members/${m.user_id}`)), 404, "member not found");
    expect((await members()).data.find((x) => x.user_id === m.user_id)).toBeUndefined();
    const back = await add({ email, role: "Administrator" });
    expect(back.body).toMatchObject({ user_id: m.user_id, role: "Administrator" }); // one user per email
    expectError(await emu.req("DELETE", emu.acct("/members/not-a-uuid")), 400, /user_id must be a uuid/);
    expect(emu.req("PUT", emu.acct(`/members/${m.user_id}`), { body: { role: "Analyst" } })).resolves.toMatchObject({
      status: 405,
    });
  });

  test("Members (docs/contract/endpoints/members.md#removal-restrictions): nobody can remove the account owner", async () => {
    const owner = await ownerOf(emu.accountId);
    expectError(await emu.req("DELETE", emu.acct(`/members/${owner}`)), 403, "the account owner cannot be removed");
    expect((await members()).data.some((m) => m.user_id === owner)).toBe(true);
  });

  test("Members (docs/contract/endpoints/members.md#removal-restrictions): a caller cannot remove itself (a key acting for a member other than the owner)", async () => {
    const email = `${uniq("self")}@corp.example.com`;
    const m = (await add({ email, role: "Administrator" })).body;
    const own = await emu.control.memberKey(emu.accountId, m.user_id, [
      "accounts:members:remove",
      "accounts:members:add",
    ]);
    expectError(
      await emu.req("DELETE", emu.acct(`/members/${m.user_id}`), { key: own.secret_key }),
      403,
      "a caller cannot remove itself",
    );
    // The same key removes someone else, and the owner's key removes this member.
    const other = (await add({ email: `${uniq("other")}@corp.example.com`, role: "Analyst" }, { key: own.secret_key }))
      .body;
    expect((await emu.req("DELETE", emu.acct(`/members/${other.user_id}`), { key: own.secret_key })).status).toBe(200);
    expect((await emu.req("DELETE", emu.acct(`/members/${m.user_id}`))).status).toBe(200);
  });

  test("Members: a sub account's members are managed with its own key and its id; its owner cannot be removed", async () => {
    const sub = await makeSub(emu);
    const key = await makeKey(
      emu,
      ["accounts:members:read", "accounts:members:add", "accounts:members:remove"],
      {},
      sub.id,
    );
    const m = await add(
      { email: `${uniq("t")}@tenant.example.com`, role: "Developer" },
      { key: key.secret, account: sub.id },
    );
    expect(m.status).toBe(201);
    expect(m.body.account_id).toBe(sub.id);
    const list = await members(sub.id, key.secret);
    const owner = await ownerOf(sub.id);
    expect(list.data.map((x) => x.user_id).sort()).toEqual([m.body.user_id, owner].sort());
    expect((await members()).data.some((x) => x.user_id === m.body.user_id)).toBe(false); // isolated
    const rec = await emu.req("GET", emu.acct(`/sub-accounts/${sub.id}`));
    expect(rec.body.member_count).toBe(2);
    expectError(
      await emu.req("DELETE", emu.acct(`/members/${owner}`, sub.id), { key: key.secret }),
      403,
      "the account owner cannot be removed",
    );
    expect((await emu.req("DELETE", emu.acct(`/members/${m.body.user_id}`, sub.id), { key: key.secret })).status).toBe(
      200,
    );
  });
});
