// Scopes (docs/contract/scopes.md), the scope each endpoint requires among them: every endpoint checks its scope;
// `{domain}` scopes reach objects tied to the domain; a 403 names the scope needed.
import { type Emu, expectError, makeKey, makeSub, start } from "./helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const ZERO = "00000000-0000-4000-8000-000000000000";

describe("Scopes", () => {
  // [method, path (relative to the account), scope that allows it]
  const table: [string, string, string][] = [
    ["GET", "/api-keys", "api-keys:read"],
    ["POST", "/api-keys", "api-keys:write"],
    ["GET", `/api-keys/${ZERO}`, "api-keys:read"],
    ["PUT", `/api-keys/${ZERO}`, "api-keys:write"],
    ["DELETE", `/api-keys/${ZERO}`, "api-keys:delete"],
    ["GET", "/sub-accounts", "sub-accounts:read"],
    ["POST", "/sub-accounts", "sub-accounts:write"],
    ["GET", `/sub-accounts/${ZERO}`, "sub-accounts:read"],
    ["PUT", `/sub-accounts/${ZERO}`, "sub-accounts:write"],
    ["DELETE", `/sub-accounts/${ZERO}`, "sub-accounts:delete"],
    ["POST", `/sub-accounts/${ZERO}/suspend`, "sub-accounts:suspend"],
    ["POST", `/sub-accounts/${ZERO}/unsuspend`, "sub-accounts:suspend"],
    ["GET", "/sub-accounts/usage", "sub-accounts:usage"],
    ["GET", `/sub-accounts/${ZERO}/api-keys`, "sub-account-api-keys:read"],
    ["POST", `/sub-accounts/${ZERO}/api-keys`, "sub-account-api-keys:write"],
    ["GET", `/sub-accounts/${ZERO}/api-keys/${ZERO}`, "sub-account-api-keys:read"],
    ["PUT", `/sub-accounts/${ZERO}/api-keys/${ZERO}`, "sub-account-api-keys:write"],
    ["DELETE", `/sub-accounts/${ZERO}/api-keys/${ZERO}`, "sub-account-api-keys:delete"],
    ["GET", "/domains", "domains:read"],
    ["POST", "/domains", "domains:write"],
    ["GET", "/domains/x.example.com", "domains:read"],
    ["PUT", "/domains/x.example.com", "domains:write"],
    ["POST", "/domains/x.example.com/check-dns", "domains:write"],
    ["DELETE", "/domains/x.example.com", "domains:delete:all"],
    ["GET", "/routes", "routes:read:all"],
    ["POST", "/routes", "routes:write:all"],
    ["GET", `/routes/${ZERO}`, "routes:read:all"],
    ["PUT", `/routes/${ZERO}`, "routes:write:all"],
    ["DELETE", `/routes/${ZERO}`, "routes:delete:all"],
    ["GET", "/webhooks", "webhooks:read:all"],
    ["POST", "/webhooks", "webhooks:write:all"],
    ["DELETE", `/webhooks/${ZERO}`, "webhooks:delete:all"],
    ["GET", "/smtp-credentials", "smtp-credentials:read:all"],
    ["POST", "/smtp-credentials", "smtp-credentials:write:all"],
    ["DELETE", `/smtp-credentials/${ZERO}`, "smtp-credentials:delete:all"],
    ["GET", "/suppressions", "suppressions:read"],
    ["POST", "/suppressions", "suppressions:write"],
    ["DELETE", "/suppressions?email=a@b.example.com", "suppressions:delete"],
    ["DELETE", "/suppressions/all", "suppressions:wipe"],
    ["GET", "/members", "accounts:members:read"],
    ["POST", "/members", "accounts:members:add"],
    ["DELETE", `/members/${ZERO}`, "accounts:members:remove"],
    ["POST", "/messages", "messages:send:all"],
    ["POST", "/messages/conversation", "messages:send:all"],
  ];

  test.each(table)(
    "Scopes: %s %s needs %s (403 names it; the scope itself passes the check)",
    async (method, path, scope) => {
      const other = scope === "accounts:read" ? "domains:read" : "accounts:read";
      const without = await makeKey(emu, [other]);
      const body = method === "POST" || method === "PUT" ? {} : undefined;
      const denied = await emu.req(method, emu.acct(path), { key: without.secret, body });
      expectError(denied, 403, scope);
      const withIt = await makeKey(emu, [scope]);
      const allowed = await emu.req(method, emu.acct(path), { key: withIt.secret, body });
      expect(allowed.status).not.toBe(403);
      expect(allowed.status).not.toBe(401);
    },
  );

  test("Scopes {domain}: a route is tied to the domain of its recipient address", async () => {
    const k = await makeKey(emu, [
      "routes:write:a.example.com",
      "routes:read:a.example.com",
      "routes:delete:a.example.com",
    ]);
    const mk = (recipient: string) =>
      emu.req("POST", emu.acct("/routes"), {
        key: k.secret,
        body: { name: "r", url: "https://h.example.com/", recipient },
      });
    const ok = await mk("*@a.example.com");
    expect(ok.status).toBe(201);
    expectError(await mk("*@b.example.com"), 403, "routes:write:all or routes:write:b.example.com");
    expectError(await mk(""), 403, "routes:write:all");
    // Moving the route to another domain needs that domain too.
    const mv = await emu.req("PUT", emu.acct(`/routes/${ok.body.id}`), {
      key: k.secret,
      body: { recipient: "x@b.example.com" },
    });
    expectError(mv, 403, "routes:write:b.example.com");
    const other = await emu.req("POST", emu.acct("/routes"), {
      body: { name: "r", url: "https://h.example.com/", recipient: "u@b.example.com" },
    });
    expectError(
      await emu.req("GET", emu.acct(`/routes/${other.body.id}`), { key: k.secret }),
      403,
      "routes:read:b.example.com",
    );
    expectError(await emu.req("DELETE", emu.acct(`/routes/${other.body.id}`), { key: k.secret }), 403);
    expect((await emu.req("DELETE", emu.acct(`/routes/${ok.body.id}`), { key: k.secret })).status).toBe(200);
  });

  test("Scopes {domain}: the routes list needs `domain` with a domain-scoped key and filters by it", async () => {
    const k = await makeKey(emu, ["routes:read:c.example.com"]);
    await emu.req("POST", emu.acct("/routes"), {
      body: { name: "c", url: "https://h.example.com/", recipient: "*@c.example.com" },
    });
    await emu.req("POST", emu.acct("/routes"), {
      body: { name: "d", url: "https://h.example.com/", recipient: "*@d.example.com" },
    });
    expectError(await emu.req("GET", emu.acct("/routes"), { key: k.secret }), 400, /domain: required/);
    expectError(
      await emu.req("GET", emu.acct("/routes?domain=d.example.com"), { key: k.secret }),
      403,
      "routes:read:d.example.com",
    );
    const r = await emu.req("GET", emu.acct("/routes?domain=c.example.com"), { key: k.secret });
    expect(r.status).toBe(200);
    expect(r.body.data.map((x: { recipient: string }) => x.recipient)).toEqual(["*@c.example.com"]);
    // The global scope may omit it.
    expect((await emu.req("GET", emu.acct("/routes"))).body.data.length).toBeGreaterThanOrEqual(2);
  });

  test("Scopes {domain}: webhook and SMTP lists show a domain-scoped key only objects of its domains", async () => {
    for (const fam of ["webhooks", "smtp-credentials"] as const) {
      const body = (scope: string, domains?: string[]) =>
        fam === "webhooks"
          ? { name: "w", url: "https://h.example.com/", scope, ...(domains ? { domains } : {}) }
          : { name: "s", scope, ...(domains ? { domains } : {}) };
      const mine = await emu.req("POST", emu.acct(`/${fam}`), {
        body: body("scoped", ["e.example.com", "z.example.com"]),
      });
      const theirs = await emu.req("POST", emu.acct(`/${fam}`), { body: body("scoped", ["f.example.com"]) });
      const global = await emu.req("POST", emu.acct(`/${fam}`), { body: body("global") });
      expect([mine.status, theirs.status, global.status]).toEqual([201, 201, 201]);
      const k = await makeKey(emu, [
        `${fam}:read:e.example.com`,
        `${fam}:delete:e.example.com`,
        `${fam}:write:e.example.com`,
      ]);
      const list = await emu.req("GET", emu.acct(`/${fam}`), { key: k.secret });
      expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([mine.body.id]);
      expectError(await emu.req("GET", emu.acct(`/${fam}/${theirs.body.id}`), { key: k.secret }), 403);
      expectError(
        await emu.req("GET", emu.acct(`/${fam}/${global.body.id}`), { key: k.secret }),
        403,
        `${fam}:read:all`,
      );
      expectError(
        await emu.req("POST", emu.acct(`/${fam}`), { key: k.secret, body: body("global") }),
        403,
        `${fam}:write:all`,
      );
      expectError(
        await emu.req("POST", emu.acct(`/${fam}`), {
          key: k.secret,
          body: body("scoped", ["e.example.com", "f.example.com"]),
        }),
        403,
        `${fam}:write:f.example.com`,
      );
      // Delete: a delete scope for one associated domain suffices (docs/contract/scopes.md#scope-each-endpoint-requires).
      expect((await emu.req("DELETE", emu.acct(`/${fam}/${mine.body.id}`), { key: k.secret })).status).toBe(200);
    }
  });

  test("Scopes {domain}: domains:delete:{domain} deletes that domain only", async () => {
    await emu.req("POST", emu.acct("/domains"), { body: { domain: "g.example.com" } });
    await emu.req("POST", emu.acct("/domains"), { body: { domain: "h.example.com" } });
    const k = await makeKey(emu, ["domains:delete:g.example.com"]);
    expectError(
      await emu.req("DELETE", emu.acct("/domains/h.example.com"), { key: k.secret }),
      403,
      "domains:delete:h.example.com",
    );
    expect((await emu.req("DELETE", emu.acct("/domains/g.example.com"), { key: k.secret })).status).toBe(200);
  });

  test("Scopes: sub-account scopes are granted to parent-account keys only", async () => {
    const sub = await makeSub(emu);
    for (const s of ["sub-accounts:read", "api-keys:read"]) {
      const r = await emu.req("POST", emu.acct(`/sub-accounts/${sub.id}/api-keys`), {
        body: { label: "x", scopes: [s] },
      });
      expectError(r, 400, /cannot be granted to a sub-account key/);
    }
  });

  test("Scopes: a malformed {domain} scope is a 400 naming the index", async () => {
    const r = await emu.req("POST", emu.acct("/api-keys"), {
      body: { label: "x", scopes: ["routes:read:all", "routes:write:Not_A_Domain"] },
    });
    expectError(r, 400, /^scopes\[1\]: /);
  });
});
