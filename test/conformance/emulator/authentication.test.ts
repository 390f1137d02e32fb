// Authentication (docs/contract/authentication.md): its rules 1–7 and account states, over real HTTP.
import { ApiKey, ApiKeyWithSecret } from "../../../provider/api";
import { type Emu, expectError, makeKey, makeSub, start, uniq } from "./helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

describe("Authentication", () => {
  test("authentication rule 1: requests without a Bearer key are 401", async () => {
    expectError(await emu.req("GET", "/v2/ping", { key: null }), 401);
    expectError(await emu.req("GET", emu.acct("/api-keys"), { key: null }), 401);
    const basic = await emu.req("GET", "/v2/ping", { key: null, headers: { authorization: `Basic ${emu.apiKey}` } });
    expectError(basic, 401);
  });

  test("authentication rule 1: an unknown or malformed key is 401 'Invalid API key'", async () => {
    expectError(await emu.req("GET", "/v2/ping", { key: `txm-sk-${"a".repeat(64)}` }), 401, "Invalid API key");
    expectError(await emu.req("GET", "/v2/ping", { key: "not-a-key" }), 401, "Invalid API key");
    expectError(await emu.req("GET", "/v2/ping", { key: emu.apiKey.slice(0, -1) }), 401);
  });

  test("authentication rule 2: keys are <prefix>-sk-<64 random characters>", async () => {
    expect(emu.apiKey).toMatch(/^[a-z0-9]+-sk-[A-Za-z0-9]{64}$/);
    const k = await makeKey(emu, ["routes:read:all"]);
    expect(k.secret).toMatch(/^txm-sk-[A-Za-z0-9]{64}$/);
    expect(k.secret).not.toBe(emu.apiKey);
  });

  test("authentication rule 3: the secret is shown only in the 201 of key creation", async () => {
    const r = await emu.req("POST", emu.acct("/api-keys"), { body: { label: uniq(), scopes: ["routes:read:all"] } });
    expect(r.status).toBe(201);
    expect(ApiKeyWithSecret.parse(r.body).secret_key).toBeTruthy();
    const id = r.body.id;
    for (const rr of [
      await emu.req("GET", emu.acct(`/api-keys/${id}`)),
      await emu.req("PUT", emu.acct(`/api-keys/${id}`), { body: { label: uniq("renamed") } }),
    ]) {
      expect(rr.status).toBe(200);
      ApiKey.parse(rr.body);
      expect(rr.body).not.toHaveProperty("secret_key");
    }
    const list = await emu.req("GET", emu.acct("/api-keys"));
    expect(list.text).not.toContain(r.body.secret_key);
    expect(list.text).not.toContain(emu.apiKey);
  });

  test("GET /v2/ping: any valid key, 200 {message}", async () => {
    const k = await makeKey(emu, ["routes:read:all"]);
    const r = await emu.req("GET", "/v2/ping", { key: k.secret });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: expect.any(String) });
  });

  test("authentication rule 6: a sub-account key authenticates as the sub account, with its id in paths", async () => {
    const sub = await makeSub(emu);
    const k = await makeKey(emu, ["routes:read:all", "routes:write:all", "domains:read"], {}, sub.id);
    expect(k.record.account_id).toBe(sub.id);
    expect((await emu.req("GET", "/v2/ping", { key: k.secret })).status).toBe(200);
    const created = await emu.req("POST", emu.acct("/routes", sub.id), {
      key: k.secret,
      body: { name: "r", url: "https://hooks.example.com/in", recipient: "" },
    });
    expect(created.status).toBe(201);
    const own = await emu.req("GET", emu.acct("/routes", sub.id), { key: k.secret });
    expect(own.body.data.map((r: { id: string }) => r.id)).toEqual([created.body.id]);
    // The sub account's routes are its own: not in the parent's list.
    const parents = await emu.req("GET", emu.acct("/routes"));
    expect(parents.body.data.map((r: { id: string }) => r.id)).not.toContain(created.body.id);
  });

  test("authentication rule 6: account_id in the path must be the key's account (403), unknown accounts 404", async () => {
    const sub = await makeSub(emu);
    const k = await makeKey(emu, ["routes:read:all"], {}, sub.id);
    expectError(await emu.req("GET", emu.acct("/routes"), { key: k.secret }), 403, /cannot act on account/);
    expectError(await emu.req("GET", emu.acct("/routes", sub.id)), 403, /cannot act on account/);
    expectError(await emu.req("GET", emu.acct("/routes", "00000000-0000-4000-8000-000000000000")), 404);
    expectError(await emu.req("GET", emu.acct("/routes", "not-a-uuid")), 400, /account_id must be a uuid/);
  });

  test("authentication rule 6: a sub account's own credentials cannot manage API keys or sub accounts", async () => {
    const sub = await makeSub(emu);
    const k = await makeKey(emu, ["routes:read:all"], {}, sub.id);
    expectError(
      await emu.req("GET", emu.acct("/api-keys", sub.id), { key: k.secret }),
      403,
      /sub-account keys cannot manage API keys/,
    );
    expectError(
      await emu.req("POST", emu.acct("/api-keys", sub.id), {
        key: k.secret,
        body: { label: "x", scopes: ["routes:read:all"] },
      }),
      403,
    );
    expectError(await emu.req("GET", emu.acct("/sub-accounts", sub.id), { key: k.secret }), 403);
    expectError(await emu.req("GET", emu.acct(`/sub-accounts/${sub.id}/api-keys`, sub.id), { key: k.secret }), 403);
    // ...and such scopes cannot be granted to a sub-account key at all.
    const bad = await emu.req("POST", emu.acct(`/sub-accounts/${sub.id}/api-keys`), {
      body: { label: "x", scopes: ["routes:read:all", "sub-account-api-keys:write"] },
    });
    expectError(bad, 400, /scopes\[1\]: 'sub-account-api-keys:write' cannot be granted to a sub-account key/);
  });

  test("authentication rule 6: only parent credentials with sub-account-api-keys:* scopes manage sub-account keys", async () => {
    const sub = await makeSub(emu);
    const weak = await makeKey(emu, ["sub-accounts:read", "api-keys:write"]);
    const r = await emu.req("POST", emu.acct(`/sub-accounts/${sub.id}/api-keys`), {
      key: weak.secret,
      body: { label: "x", scopes: ["routes:read:all"] },
    });
    expectError(r, 403, "sub-account-api-keys:write");
  });

  test("States: keys of a deleted sub account stop authenticating (401); suspended accounts read but cannot write", async () => {
    const sub = await makeSub(emu);
    const k = await makeKey(emu, ["routes:read:all", "routes:write:all"], {}, sub.id);
    const susp = await emu.req("POST", emu.acct(`/sub-accounts/${sub.id}/suspend`), { body: { reason: "unpaid" } });
    expect(susp.body.status).toBe("suspended");
    expect((await emu.req("GET", emu.acct("/routes", sub.id), { key: k.secret })).status).toBe(200);
    const w = await emu.req("POST", emu.acct("/routes", sub.id), {
      key: k.secret,
      body: { name: "r", url: "https://h.example.com/", recipient: "" },
    });
    expectError(w, 403, /suspended/);
    expect((await emu.req("DELETE", emu.acct(`/sub-accounts/${sub.id}`))).body).toEqual({
      message: "sub account deleted",
    });
    expectError(await emu.req("GET", "/v2/ping", { key: k.secret }), 401);
  });
});
