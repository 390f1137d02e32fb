// AccountMember and Suppression against an in-memory Api: what check accepts (field-named errors,
// a past expiresAt only for a suppression already in state), how a suppression the service still
// lists after its expiresAt reads (gone), and how adoption of a member verifies only what the record
// holds (its role; the email is not in it).
import { z } from "zod";
import type { Api } from "../../../provider/core/api";
import { makeProvider } from "../../../provider/core/factory";
import { declarations } from "../../../provider/resources";

const ACCOUNT = "11111111-1111-4111-8111-111111111111";
const USER = "22222222-2222-4222-8222-222222222222";
const SUPP = "33333333-3333-4333-8333-333333333333";
const DAY = 24 * 3600_000;

/** Answers list/get of members and suppressions from fixed records (a service that keeps expired ones). */
function fakeApi(records: { members?: unknown[]; suppressions?: unknown[] }): Api {
  return {
    async get<T>(path: string, schema: z.ZodType<T, unknown>) {
      if (path.endsWith("/members")) return schema.parse({ object: "list", data: records.members ?? [] });
      throw Object.assign(new Error(`unexpected GET ${path}`), { category: "not-found" });
    },
    async *list<T>(_path: string, schema: z.ZodType<T, unknown>) {
      for (const s of records.suppressions ?? []) yield schema.parse(s);
    },
    post: async () => {
      throw new Error("no create expected");
    },
    put: async () => {
      throw new Error("no update expected");
    },
    delete: async () => undefined,
  };
}

function provider(kind: "AccountMember" | "Suppression", api: Api) {
  process.env.TXMAIL_API_KEY = "test-sk-key";
  process.env.TXMAIL_ACCOUNT_ID = ACCOUNT;
  return makeProvider(declarations[kind]!, () => api);
}

const suppression = (expiresAt: string) => ({
  object: "suppression",
  id: SUPP,
  created_at: new Date(Date.now() - DAY).toISOString(),
  email: "blocked@x.example.com",
  domain: null,
  reason: null,
  expires_at: expiresAt,
});

describe("Suppression", () => {
  it("reads a suppression past its expiresAt as gone, even when the service still lists it", async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    const p = provider("Suppression", fakeApi({ suppressions: [suppression(past)] }));
    expect(await p.read(SUPP, { email: "blocked@x.example.com", expiresAt: past })).toEqual({ id: "" });
    const future = new Date(Date.now() + DAY).toISOString();
    const live = provider("Suppression", fakeApi({ suppressions: [suppression(future)] }));
    const r = await live.read(SUPP, { email: "blocked@x.example.com", expiresAt: future });
    expect(r.id).toBe(SUPP);
    expect(r.props).toMatchObject({ email: "blocked@x.example.com", expiresAt: future });
    expect(r.props).not.toHaveProperty("domain"); // null = every domain = the program left it unset
  });

  it("check: a new or changed suppression must expire in the future; an unchanged one may have passed it", async () => {
    const p = provider("Suppression", fakeApi({}));
    const past = "2020-01-01T00:00:00.000Z";
    const fresh = await p.check({}, { email: "a@x.example.com", expiresAt: past });
    expect(fresh.failures).toEqual([
      { property: "expiresAt", reason: expect.stringMatching(/^expiresAt: 2020-01-01T00:00:00.000Z is in the past/) },
    ]);
    const kept = await p.check(
      { email: "a@x.example.com", expiresAt: past },
      { email: "a@x.example.com", expiresAt: past },
    );
    expect(kept.failures).toBeUndefined();
  });

  it("check names the field and the rule for bad input, and canonicalises the instant", async () => {
    const p = provider("Suppression", fakeApi({}));
    const bad = await p.check({}, { email: "nope", domain: "-x", reason: "r".repeat(256), expiresAt: "soon" });
    expect(bad.failures?.map((f) => f.property).sort()).toEqual(["domain", "email", "expiresAt", "reason"]);
    expect(bad.failures?.find((f) => f.property === "email")?.reason).toMatch(/^email: must be an email address/);
    const ok = await p.check({}, { email: "A@X.example.com", expiresAt: "2099-01-01T00:00:00+01:00" });
    expect(ok.inputs).toMatchObject({ email: "a@x.example.com", expiresAt: "2098-12-31T23:00:00.000Z" });
  });
});

describe("AccountMember", () => {
  const member = {
    user_id: USER,
    account_id: ACCOUNT,
    role: "Developer",
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
  };

  it("check names the field and the rule (email, role)", async () => {
    const p = provider("AccountMember", fakeApi({}));
    const r = await p.check({}, { email: "nope", role: "Owner" });
    expect(r.failures?.map((f) => f.reason).sort()).toEqual([
      expect.stringMatching(/^email: must be an email address/),
      expect.stringMatching(/^role: .*"Administrator"/),
    ]);
  });

  it("adopts by user id, verifying the role (the record has no email), and keeps email and name from inputs", async () => {
    const p = provider("AccountMember", fakeApi({ members: [member] }));
    const inputs = { email: "dev@corp.example.com", name: "Dev", role: "Developer", adoptId: USER };
    const adopted = await p.create(inputs);
    expect(adopted.id).toBe(USER);
    expect(adopted.outs).toMatchObject({ email: "dev@corp.example.com", name: "Dev", role: "Developer", userId: USER });
    await expect(p.create({ ...inputs, role: "Analyst" })).rejects.toThrow(
      /role is "Developer", the program says "Analyst"/,
    );
    await expect(p.create({ ...inputs, adoptId: SUPP })).rejects.toThrow(/no such object/);
  });

  it("replaces a role change delete-first when the email stays, add-first for a new email", async () => {
    const p = provider("AccountMember", fakeApi({}));
    const olds = { email: "a@corp.example.com", role: "Developer" };
    expect(await p.diff(USER, olds, { ...olds, role: "Analyst" })).toMatchObject({
      replaces: ["role"],
      deleteBeforeReplace: true,
    });
    expect(await p.diff(USER, olds, { email: "b@corp.example.com", role: "Developer" })).toMatchObject({
      replaces: ["email"],
      deleteBeforeReplace: false,
    });
  });
});
