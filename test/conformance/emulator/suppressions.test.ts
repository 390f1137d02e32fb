// Suppressions (docs/contract/endpoints/suppressions.md): the record, the create's list envelope, delete
// by email and domain, and expiry (an expired suppression is gone: not listed, not deletable, and a
// new create for the same address replaces it).
import { type Emu, expectError, start, uniq } from "./helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const DAY = 24 * 3600_000;
const inDays = async (days: number) => new Date((await emu.control.clock()).nowMs + days * DAY).toISOString();
const create = (body: unknown) => emu.req("POST", emu.acct("/suppressions"), { body });
const listed = async (email: string) =>
  (await emu.req("GET", emu.acct(`/suppressions?email=${encodeURIComponent(email)}`))).body.data as any[];

describe("Suppressions", () => {
  test("Suppressions: a create answers 201 {object: list, data: [Suppression]} with the spec's fields", async () => {
    const email = `${uniq("s")}@x.example.com`;
    const expires = await inDays(30);
    const r = await create({ email, domain: "mail.example.com", reason: "compliance", expires_at: expires });
    expect(r.status).toBe(201);
    expect(r.body.object).toBe("list");
    expect(r.body.data).toHaveLength(1);
    const s = r.body.data[0];
    expect(Object.keys(s).sort()).toEqual(["created_at", "domain", "email", "expires_at", "id", "object", "reason"]);
    expect(s).toMatchObject({ object: "suppression", email, domain: "mail.example.com", reason: "compliance" });
    expect(Date.parse(s.expires_at)).toBe(Date.parse(expires));
    expect(await listed(email)).toEqual([s]);
  });

  test("Suppressions: expires_at is required and RFC 3339; email must be an address; domain a host name", async () => {
    expectError(await create({ email: "a@x.example.com" }), 400, /^expires_at: /);
    expectError(await create({ email: "a@x.example.com", expires_at: "tomorrow" }), 400, /^expires_at: /);
    expectError(await create({ email: "nope", expires_at: await inDays(1) }), 400, /^email: /);
    expectError(
      await create({ email: "a@x.example.com", domain: "-bad", expires_at: await inDays(1) }),
      400,
      /^domain: /,
    );
    expectError(
      await create({ email: "a@x.example.com", reason: "r".repeat(256), expires_at: await inDays(1) }),
      400,
      /^reason: /,
    );
  });

  test("Suppressions: one live suppression per address and domain (409); each domain and 'every domain' are distinct", async () => {
    const email = `${uniq("d")}@x.example.com`;
    const expires_at = await inDays(5);
    expect((await create({ email, expires_at })).status).toBe(201);
    expect((await create({ email, domain: "a.example.com", expires_at })).status).toBe(201);
    expectError(await create({ email, domain: "a.example.com", expires_at }), 409, "suppression already exists");
    expect((await emu.req("DELETE", emu.acct(`/suppressions?email=${email}&domain=a.example.com`))).status).toBe(200);
    expect((await listed(email)).map((s) => s.domain)).toEqual([null]); // the every-domain one stays
    expect((await emu.req("DELETE", emu.acct(`/suppressions?email=${email}`))).status).toBe(200);
    expect(await listed(email)).toEqual([]);
  });

  test("Suppressions: an expired suppression is gone — not listed, a delete is 404, a new create replaces it", async () => {
    const email = `${uniq("exp")}@x.example.com`;
    expect((await create({ email, expires_at: await inDays(2) })).status).toBe(201);
    expect(await listed(email)).toHaveLength(1);
    await emu.control.advanceClock(3 * DAY);
    expect(await listed(email)).toEqual([]);
    expectError(await emu.req("DELETE", emu.acct(`/suppressions?email=${email}`)), 404, "suppression not found");
    const again = await create({ email, expires_at: await inDays(2) });
    expect(again.status).toBe(201);
    expect(await listed(email)).toEqual(again.body.data);
  });

  test("Suppressions: POST is idempotent (the list envelope is replayed)", async () => {
    const body = { email: `${uniq("i")}@x.example.com`, expires_at: await inDays(1) };
    const idem = uniq("k");
    const first = await emu.req("POST", emu.acct("/suppressions"), { body, idem });
    const replay = await emu.req("POST", emu.acct("/suppressions"), { body, idem });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(await listed(body.email)).toHaveLength(1);
  });
});
