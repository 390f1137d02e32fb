// Errors (docs/contract/errors.md): `{ message }` bodies only, verbatim delete messages, 404/405/400 for unknown paths,
// wrong methods and malformed bodies; strict request bodies and query parameters.
import { type Emu, expectError, makeKey, makeSub, start, uniq } from "./helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

describe("Errors", () => {
  test("error rule 1: every error body is exactly { message }", async () => {
    expectError(await emu.req("GET", emu.acct("/routes/00000000-0000-4000-8000-000000000000")), 404, "route not found");
    expectError(await emu.req("GET", "/v2/ping", { key: null }), 401);
    expectError(await emu.req("GET", emu.acct("/domains/nope.example.com")), 404, "domain not found");
  });

  test("Errors: unknown path 404, wrong method 405 with Allow", async () => {
    expectError(await emu.req("GET", "/v2/nothing-here"), 404);
    expectError(await emu.req("GET", "/v2/ping/"), 404);
    const r = await emu.req("PATCH", emu.acct("/api-keys"));
    expectError(r, 405);
    expect(r.headers.get("allow")).toBe("GET, POST");
    const smtpPut = await emu.req("PUT", emu.acct("/smtp-credentials/00000000-0000-4000-8000-000000000000"), {
      body: { name: "x" },
    });
    expectError(smtpPut, 405);
    expectError(await emu.req("DELETE", emu.acct("/sub-accounts/usage")), 405);
  });

  test("400: malformed JSON, wrong content type, empty body, non-object body", async () => {
    expectError(await emu.req("POST", emu.acct("/routes"), { raw: "{not json" }), 400, /malformed JSON/);
    expectError(
      await emu.req("POST", emu.acct("/routes"), { raw: "{}", headers: { "content-type": "text/plain" } }),
      400,
      /Content-Type must be application\/json/,
    );
    expectError(await emu.req("POST", emu.acct("/routes"), { raw: "" }), 400, /body is required/);
    expectError(await emu.req("POST", emu.acct("/routes"), { body: [1, 2] }), 400, /must be a JSON object/);
  });

  test("400: strict bodies name the field and the rule; unknown fields are refused, not forgiven", async () => {
    const r = await emu.req("POST", emu.acct("/api-keys"), {
      body: { label: "x", scopes: ["routes:read:all"], ipAllowList: [] },
    });
    expectError(r, 400, "ipAllowList: unrecognized field");
    const s = await emu.req("POST", emu.acct("/api-keys"), { body: { label: "x", scopes: ["routes:read"] } });
    expectError(s, 400, /scopes\[0\]: 'routes:read' is not a scope of the service; did you mean 'routes:read:all'/);
    const t = await emu.req("POST", emu.acct("/routes"), { body: { name: "", url: "ftp://x", recipient: "" } });
    expectError(t, 400, /name: .*; url: /);
  });

  test("400: unknown or repeated query parameters", async () => {
    expectError(await emu.req("GET", emu.acct("/routes?afterr=x")), 400, "unknown query parameter 'afterr'");
    expectError(await emu.req("GET", emu.acct("/routes?limit=1&limit=2")), 400, /more than once/);
  });

  test("Errors: delete-success messages verbatim", async () => {
    const label = uniq("del");
    const k = await emu.req("POST", emu.acct("/api-keys"), { body: { label, scopes: ["routes:read:all"] } });
    const d = await emu.req("DELETE", emu.acct(`/api-keys/${k.body.id}`));
    expect(d.status).toBe(200);
    expect(d.body).toEqual({ message: `api key ${k.body.id} (${label}) deleted successfully` });
    const sub = await makeSub(emu);
    expect((await emu.req("DELETE", emu.acct(`/sub-accounts/${sub.id}`))).body).toEqual({
      message: "sub account deleted",
    });
    const route = await emu.req("POST", emu.acct("/routes"), {
      body: { name: "r", url: "https://h.example.com/", recipient: "" },
    });
    expect((await emu.req("DELETE", emu.acct(`/routes/${route.body.id}`))).body).toEqual({
      message: "Operation completed successfully",
    });
    expect((await emu.req("DELETE", emu.acct("/suppressions/all"))).body).toEqual({
      message: "Operation completed successfully",
    });
  });

  test("Errors: a deleted object is a 404 afterwards; deleting twice is a 404", async () => {
    const k = await makeKey(emu, ["routes:read:all"]);
    expect((await emu.req("DELETE", emu.acct(`/api-keys/${k.id}`))).status).toBe(200);
    expectError(await emu.req("DELETE", emu.acct(`/api-keys/${k.id}`)), 404, "api key not found");
    expectError(await emu.req("GET", emu.acct(`/api-keys/${k.id}`)), 404);
    expectError(await emu.req("GET", emu.acct(`/api-keys/not-a-uuid`)), 400, "key_id must be a uuid");
  });

  test("409: a duplicate domain or suppression is a terminal 409 without retry headers", async () => {
    expect((await emu.req("POST", emu.acct("/domains"), { body: { domain: "dup.example.com" } })).status).toBe(201);
    const r = await emu.req("POST", emu.acct("/domains"), { body: { domain: "dup.example.com" } });
    expectError(r, 409, "domain already exists");
    expect(r.headers.get("retry-after")).toBeNull();
    expect(r.headers.get("idempotent-replayed")).toBeNull();
    expect(
      (
        await emu.req("POST", emu.acct("/suppressions"), {
          body: { email: "a@dup.example.com", expires_at: "2099-01-01T00:00:00Z" },
        })
      ).status,
    ).toBe(201);
    expectError(
      await emu.req("POST", emu.acct("/suppressions"), {
        body: { email: "a@dup.example.com", expires_at: "2099-01-01T00:00:00Z" },
      }),
      409,
    );
  });
});
