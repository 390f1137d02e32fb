// Idempotency (docs/contract/idempotency.md), rules 1–9, and the 409/422 rows of
// docs/contract/errors.md#statuses, over real HTTP; lifetimes are
// crossed by advancing the emulator clock, never by sleeping.
import { type Emu, expectError, makeKey, start, uniq } from "./helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const route = () => ({ name: uniq("r"), url: "https://hooks.example.com/in", recipient: "" });
const MIN = 60_000;

async function countRoutes(name: string): Promise<number> {
  const r = await emu.req("GET", emu.acct("/routes"));
  return r.body.data.filter((x: { name: string }) => x.name === name).length;
}

describe("Idempotency", () => {
  test("Idempotency rule 1: every POST create declares Idempotency-Key (replays on all of them)", async () => {
    await emu.req("POST", emu.acct("/domains"), { body: { domain: "idem1.example.com" } });
    await emu.control.setDomainVerified("idem1.example.com", true);
    const creates: [string, unknown][] = [
      ["/api-keys", { label: uniq(), scopes: ["routes:read:all"] }],
      ["/sub-accounts", { name: uniq(), website: "example.org" }],
      ["/domains", { domain: "idem1b.example.com" }],
      ["/routes", route()],
      ["/webhooks", { name: "w", url: "https://h.example.com/", scope: "global" }],
      ["/smtp-credentials", { name: "s", scope: "global" }],
      ["/suppressions", { email: "x@idem1.example.com", expires_at: "2099-01-01T00:00:00Z" }],
      [
        "/messages",
        {
          from: { email: "a@idem1.example.com" },
          recipients: [{ email: "b@c.example.com" }],
          subject: "s",
          text_content: "t",
        },
      ],
      [
        "/messages/conversation",
        { from: { email: "a@idem1.example.com" }, to: [{ email: "b@c.example.com" }], subject: "s", text_content: "t" },
      ],
    ];
    for (const [path, body] of creates) {
      const key = uniq("rule1");
      const a = await emu.req("POST", emu.acct(path), { body, idem: key });
      const b = await emu.req("POST", emu.acct(path), { body, idem: key });
      expect([path, a.status < 300, b.headers.get("idempotent-replayed")]).toEqual([path, true, "true"]);
      expect(b.body).toEqual(a.body);
    }
  });

  test("Idempotency rule 1: other POSTs (suspend, unsuspend, check-dns) and non-POSTs ignore the header", async () => {
    await emu.req("POST", emu.acct("/domains"), { body: { domain: "idem-dns.example.com" } });
    const a = await emu.req("POST", emu.acct("/domains/idem-dns.example.com/check-dns"), { idem: "cd-1" });
    const b = await emu.req("POST", emu.acct("/domains/idem-dns.example.com/check-dns"), { idem: "cd-1" });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    const g = await emu.req("GET", emu.acct("/routes"), { idem: "get-1" });
    expect(g.headers.get("idempotent-replayed")).toBeNull();
  });

  test("Idempotency rule 2 and rule 3: a fresh execution has no Idempotent-Replayed header", async () => {
    const r = await emu.req("POST", emu.acct("/routes"), { body: route(), idem: uniq() });
    expect(r.status).toBe(201);
    expect(r.headers.get("idempotent-replayed")).toBeNull();
  });

  test("Idempotency rule 4: a completed request replays status and body with Idempotent-Replayed: true, once created", async () => {
    const body = route();
    const key = uniq();
    const a = await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    const b = await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body).toEqual(a.body);
    expect(await countRoutes(body.name)).toBe(1);
  });

  test("Idempotency rule 2: a different body, method-path or path parameter with the same key is a 422 without retry headers", async () => {
    const body = route();
    const key = uniq();
    await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    const diffBody = await emu.req("POST", emu.acct("/routes"), { body: { ...body, name: "other" }, idem: key });
    expectError(diffBody, 422, /already used with a different payload/);
    expect(diffBody.headers.get("idempotent-replayed")).toBeNull();
    expect(diffBody.headers.get("retry-after")).toBeNull();
    // Same JSON value, different bytes: the hash is of the body as sent.
    const spaced = await emu.req("POST", emu.acct("/routes"), { raw: JSON.stringify(body, null, 1), idem: key });
    expectError(spaced, 422);
    const diffPath = await emu.req("POST", emu.acct("/webhooks"), { body, idem: key });
    expectError(diffPath, 422);
  });

  test("Idempotency rule 5: deterministic 4xx after the idempotency step are stored and replayed", async () => {
    const key = uniq();
    const bad = { name: "", url: "https://h.example.com/", recipient: "" };
    const a = await emu.req("POST", emu.acct("/routes"), { body: bad, idem: key });
    expectError(a, 400);
    const b = await emu.req("POST", emu.acct("/routes"), { body: bad, idem: key });
    expect(b.status).toBe(400);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body).toEqual(a.body);
    // A duplicate-domain 409 is such an outcome too.
    await emu.req("POST", emu.acct("/domains"), { body: { domain: "rule5.example.com" } });
    const k2 = uniq();
    const c = await emu.req("POST", emu.acct("/domains"), { body: { domain: "rule5.example.com" }, idem: k2 });
    const d = await emu.req("POST", emu.acct("/domains"), { body: { domain: "rule5.example.com" }, idem: k2 });
    expect([c.status, d.status, d.headers.get("idempotent-replayed")]).toEqual([409, 409, "true"]);
  });

  test("Idempotency rule 5: a handler's 403 (domain scope) is replayed after the key gains the scope; a new key gets today's answer", async () => {
    const narrow = await makeKey(emu, ["routes:write:a.rule5.example.com"]);
    const body = { name: uniq("r"), url: "https://h.example.com/in", recipient: "in@b.rule5.example.com" };
    const key = uniq();
    const a = await emu.req("POST", emu.acct("/routes"), { body, idem: key, key: narrow.secret });
    expectError(a, 403, /routes:write:b\.rule5\.example\.com/);
    const scopes = ["routes:write:a.rule5.example.com", "routes:write:b.rule5.example.com"];
    expect((await emu.req("PUT", emu.acct(`/api-keys/${narrow.id}`), { body: { scopes } })).status).toBe(200);
    const b = await emu.req("POST", emu.acct("/routes"), { body, idem: key, key: narrow.secret });
    expect([b.status, b.headers.get("idempotent-replayed")]).toEqual([403, "true"]);
    expect(b.body).toEqual(a.body);
    const c = await emu.req("POST", emu.acct("/routes"), { body, idem: uniq(), key: narrow.secret });
    expect([c.status, c.headers.get("idempotent-replayed")]).toEqual([201, null]);
    expect(await countRoutes(body.name)).toBe(1);
  });

  test("Idempotency rule 6 / authentication rule 7: auth, scope and rate failures happen before idempotency and are not stored", async () => {
    const key = uniq();
    const body = route();
    const weak = await makeKey(emu, ["routes:read:all"]);
    expectError(await emu.req("POST", emu.acct("/routes"), { body, idem: key, key: `txm-sk-${"b".repeat(64)}` }), 401);
    expectError(await emu.req("POST", emu.acct("/routes"), { body, idem: key, key: weak.secret }), 403);
    const ok = await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    expect(ok.status).toBe(201);
    expect(ok.headers.get("idempotent-replayed")).toBeNull();
  });

  test("Idempotency rule 6: a 5xx is not stored; the key is released and a retry re-executes (no 412 tombstone)", async () => {
    const body = route();
    const key = uniq();
    await emu.control.injectFault({
      method: "POST",
      path: "/v2/accounts/{account_id}/routes",
      kind: "error-before",
      count: 1,
    });
    const a = await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    expectError(a, 500);
    const b = await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(await countRoutes(body.name)).toBe(1);
    // After commit: the 5xx releases the key, so a blind retry re-executes (the documented hazard).
    const body2 = route();
    const key2 = uniq();
    await emu.control.injectFault({ method: "POST", path: "/v2/accounts/*/routes", kind: "error-after" });
    expectError(await emu.req("POST", emu.acct("/routes"), { body: body2, idem: key2 }), 500);
    const c = await emu.req("POST", emu.acct("/routes"), { body: body2, idem: key2 });
    expect([c.status, c.headers.get("idempotent-replayed")]).toEqual([201, null]);
    expect(await countRoutes(body2.name)).toBe(2);
  });

  test("Idempotency: a response dropped after commit is replayed by the retry (one object)", async () => {
    const body = route();
    const key = uniq();
    await emu.control.injectFault({ method: "POST", path: "/v2/accounts/{account_id}/routes", kind: "drop-after" });
    await expect(emu.req("POST", emu.acct("/routes"), { body, idem: key })).rejects.toThrow();
    const b = await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    expect([b.status, b.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(await countRoutes(body.name)).toBe(1);
  });

  test("Idempotency: in progress → 409 with Idempotent-Replayed: false and a positive integer Retry-After", async () => {
    const body = route();
    const key = uniq();
    await emu.control.injectFault({
      method: "POST",
      path: "/v2/accounts/{account_id}/routes",
      kind: "delay",
      delayMs: 400,
    });
    const first = emu.req("POST", emu.acct("/routes"), { body, idem: key });
    await new Promise((r) => setTimeout(r, 100));
    const second = await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    expectError(second, 409, /in progress/);
    expect(second.headers.get("idempotent-replayed")).toBe("false");
    expect(second.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect((await first).status).toBe(201);
    const third = await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    expect(third.headers.get("idempotent-replayed")).toBe("true");
  });

  test("Idempotency rule 7: key creation replays the same secret_key for 5 minutes, then refuses with a terminal 409", async () => {
    const body = { label: uniq(), scopes: ["routes:read:all"] };
    const key = uniq();
    const a = await emu.req("POST", emu.acct("/api-keys"), { body, idem: key });
    await emu.control.advanceClock(4 * MIN);
    const b = await emu.req("POST", emu.acct("/api-keys"), { body, idem: key });
    expect([b.status, b.headers.get("idempotent-replayed"), b.body.secret_key]).toEqual([
      201,
      "true",
      a.body.secret_key,
    ]);
    await emu.control.advanceClock(1 * MIN + 1000);
    const c = await emu.req("POST", emu.acct("/api-keys"), { body, idem: key });
    expectError(c, 409, /can no longer be replayed/);
    expect(c.headers.get("idempotent-replayed")).toBeNull();
    expect(c.headers.get("retry-after")).toBeNull();
    const keys = await emu.req("GET", emu.acct("/api-keys"));
    expect(keys.body.data.filter((k: { label: string }) => k.label === body.label)).toHaveLength(1);
  });

  test("Idempotency rule 7: the stored secret-bearing response is encrypted at rest (never in plain text in the state)", async () => {
    const key = uniq();
    const a = await emu.req("POST", emu.acct("/api-keys"), {
      body: { label: uniq(), scopes: ["routes:read:all"] },
      idem: key,
    });
    const dump = JSON.stringify(await emu.control.dumpState());
    expect(dump).not.toContain(a.body.secret_key);
    expect(dump).not.toContain(key);
  });

  test("Idempotency rule 7: a 4xx from key creation is not stored and leaves the key in progress until the 5-minute lease ends", async () => {
    const key = uniq();
    const bad = { label: "", scopes: ["routes:read:all"] };
    expectError(await emu.req("POST", emu.acct("/api-keys"), { body: bad, idem: key }), 400);
    const again = await emu.req("POST", emu.acct("/api-keys"), { body: bad, idem: key });
    expectError(again, 409, /in progress/);
    expect(again.headers.get("idempotent-replayed")).toBe("false");
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(60);
    await emu.control.advanceClock(5 * MIN + 1000);
    const fixed = await emu.req("POST", emu.acct("/api-keys"), { body: bad, idem: key });
    expectError(fixed, 400);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
  });

  test("Idempotency rule 8: after 24 hours the record is gone and the key executes afresh", async () => {
    const body = route();
    const key = uniq();
    await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    await emu.control.advanceClock(23 * 60 * MIN);
    expect((await emu.req("POST", emu.acct("/routes"), { body, idem: key })).headers.get("idempotent-replayed")).toBe(
      "true",
    );
    await emu.control.advanceClock(61 * MIN);
    const c = await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    expect([c.status, c.headers.get("idempotent-replayed")]).toEqual([201, null]);
  });

  test("Idempotency rule 9: keys are scoped to the account", async () => {
    const sub = await emu.req("POST", emu.acct("/sub-accounts"), { body: { name: uniq(), website: "example.org" } });
    const sk = await makeKey(emu, ["routes:write:all", "routes:read:all"], {}, sub.body.id);
    const body = route();
    const key = uniq();
    const a = await emu.req("POST", emu.acct("/routes"), { body, idem: key });
    const b = await emu.req("POST", emu.acct("/routes", sub.body.id), { body, idem: key, key: sk.secret });
    expect([a.status, b.status, b.headers.get("idempotent-replayed")]).toEqual([201, 201, null]);
    expect(b.body.id).not.toBe(a.body.id);
  });

  test("Limits: Idempotency-Key is at most 255 characters (256 → 400); 255 works", async () => {
    expectError(
      await emu.req("POST", emu.acct("/routes"), { body: route(), idem: "k".repeat(256) }),
      400,
      /Idempotency-Key must be 1 to 255/,
    );
    expect((await emu.req("POST", emu.acct("/routes"), { body: route(), idem: "k".repeat(255) })).status).toBe(201);
  });
});
