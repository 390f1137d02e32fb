// IP allow lists (docs/contract/allow-lists.md), allow-list rules 1–7, over real HTTP. A second emulator trusts X-Forwarded-For so tests can
// speak from any client address on loopback.
import { type Emu, expectError, makeKey, makeSub, start, uniq } from "./helpers";

let emu: Emu;
let xff: Emu;
beforeAll(async () => {
  emu = await start();
  xff = await start({ trustForwardedFor: true });
});
afterAll(async () => {
  await emu.close();
  await xff.close();
});

const from = (ip: string) => ({ "x-forwarded-for": ip });

describe("IP allow lists (docs/contract/allow-lists.md)", () => {
  test("allow-list rule 2: entries are canonicalised (bare → /32 or /128, host bits cleared, RFC 5952) and de-duplicated", async () => {
    const k = await makeKey(emu, ["routes:read:all"], {
      ip_allow_list: ["10.1.2.3/8", "192.0.2.7", "2001:DB8:0:0::1", "10.0.0.0/8", "::ffff:198.51.100.0/120"],
    });
    expect(k.record.ip_allow_list).toEqual(["10.0.0.0/8", "192.0.2.7/32", "2001:db8::1/128", "198.51.100.0/24"]);
  });

  test("allow-list rule 3: allow-all prefixes in any spelling are rejected with 400 naming the entry", async () => {
    for (const [i, e] of [
      [1, "0.0.0.0/0"],
      [1, "::/0"],
      [1, "10.1.0.0/0"],
      [1, "::ffff:0:0/96"],
    ] as const) {
      const r = await emu.req("POST", emu.acct("/api-keys"), {
        body: { label: "x", scopes: ["routes:read:all"], ip_allow_list: ["10.0.0.1", e] },
      });
      expectError(r, 400, new RegExp(`^ip_allow_list\\[${i}\\]: .*allows every`));
    }
  });

  test("allow-list rule 2: invalid entries are a 400 naming index and rule", async () => {
    const r = await emu.req("POST", emu.acct("/api-keys"), {
      body: {
        label: "x",
        scopes: ["routes:read:all"],
        ip_allow_list: ["10.0.0.1", "10.0.0.0/33", "010.0.0.1", " 10.0.0.1"],
      },
    });
    expectError(
      r,
      400,
      /ip_allow_list\[1\]: .*prefix length.*; ip_allow_list\[2\]: .*ambiguous.*; ip_allow_list\[3\]: .*whitespace/,
    );
  });

  test("allow-list rule 4: at most 100 entries after de-duplication (101 → 400; 100 + duplicates → 201)", async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `10.0.${i}.0/24`);
    const r = await emu.req("POST", emu.acct("/api-keys"), {
      body: { label: "x", scopes: ["routes:read:all"], ip_allow_list: [...hundred, "10.1.0.0/24"] },
    });
    expectError(r, 400, /ip_allow_list: has 101 entries/);
    const ok = await emu.req("POST", emu.acct("/api-keys"), {
      body: { label: uniq(), scopes: ["routes:read:all"], ip_allow_list: [...hundred, "10.0.0.7/24", "10.0.1.0/24"] },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.ip_allow_list).toHaveLength(100);
  });

  test("allow-list rule 5: an empty list (the default) imposes no restriction", async () => {
    const k = await makeKey(xff, ["routes:read:all"]);
    expect(k.record.ip_allow_list).toEqual([]);
    expect((await xff.req("GET", "/v2/ping", { key: k.secret, headers: from("203.0.113.9") })).status).toBe(200);
  });

  test("allow-list rule 6: a client outside a non-empty list gets 403 on every v2 endpoint, whatever the scopes", async () => {
    const all = ["api-keys:read", "routes:read:all", "sub-accounts:read", "domains:read"];
    const k = await makeKey(xff, all, { ip_allow_list: ["198.51.100.0/24", "2001:db8::/32"] });
    for (const path of [
      "/v2/ping",
      xff.acct("/api-keys"),
      xff.acct("/routes"),
      xff.acct("/sub-accounts"),
      xff.acct("/domains"),
    ]) {
      expectError(
        await xff.req("GET", path, { key: k.secret, headers: from("203.0.113.9") }),
        403,
        /not in this API key's ip_allow_list/,
      );
      expect((await xff.req("GET", path, { key: k.secret, headers: from("198.51.100.20") })).status).toBe(200);
    }
    expect((await xff.req("GET", "/v2/ping", { key: k.secret, headers: from("2001:db8::42") })).status).toBe(200);
    expect((await xff.req("GET", "/v2/ping", { key: k.secret, headers: from("::ffff:198.51.100.3") })).status).toBe(
      200,
    );
    // Without trustForwardedFor the socket address (127.0.0.1) counts, not the header.
    const k2 = await makeKey(emu, ["routes:read:all"], { ip_allow_list: ["198.51.100.0/24"] });
    expectError(await emu.req("GET", "/v2/ping", { key: k2.secret, headers: from("198.51.100.20") }), 403);
    const k3 = await makeKey(emu, ["routes:read:all"], { ip_allow_list: ["127.0.0.0/8"] });
    expect((await emu.req("GET", "/v2/ping", { key: k3.secret })).status).toBe(200);
  });

  test("allow-list rule 7 / authentication rule 7: allow-list failures come before idempotency and are never stored", async () => {
    const k = await makeKey(xff, ["routes:write:all"], { ip_allow_list: ["198.51.100.0/24"] });
    const body = { name: "r", url: "https://h.example.com/", recipient: "" };
    const denied = await xff.req("POST", xff.acct("/routes"), {
      key: k.secret,
      body,
      idem: "ip-1",
      headers: from("203.0.113.1"),
    });
    expectError(denied, 403);
    const ok = await xff.req("POST", xff.acct("/routes"), {
      key: k.secret,
      body,
      idem: "ip-1",
      headers: from("198.51.100.1"),
    });
    expect(ok.status).toBe(201);
    expect(ok.headers.get("idempotent-replayed")).toBeNull();
  });

  test("allow-list rule 7: a key updating its own list to exclude the caller gets 409 (self-lockout guard)", async () => {
    const k = await makeKey(xff, ["api-keys:write", "api-keys:read"]);
    const self = (list: string[], ip: string) =>
      xff.req("PUT", xff.acct(`/api-keys/${k.id}`), {
        key: k.secret,
        body: { ip_allow_list: list },
        headers: from(ip),
      });
    const r = await self(["198.51.100.0/24"], "203.0.113.5");
    expectError(r, 409, /self-lockout/);
    expect(r.headers.get("retry-after")).toBeNull();
    expect(r.headers.get("idempotent-replayed")).toBeNull();
    expect((await self(["198.51.100.0/24", "203.0.113.0/24"], "203.0.113.5")).status).toBe(200);
    // Another key of the account may set any list (no guard).
    const other = await xff.req("PUT", xff.acct(`/api-keys/${k.id}`), {
      body: { ip_allow_list: ["192.0.2.0/24"] },
      headers: from("203.0.113.5"),
    });
    expect(other.status).toBe(200);
  });

  test("allow-list rule 7: a parent updating a sub-account key has no self-lockout guard", async () => {
    const sub = await makeSub(xff);
    const sk = await makeKey(xff, ["routes:read:all"], {}, sub.id);
    const r = await xff.req("PUT", xff.acct(`/sub-accounts/${sub.id}/api-keys/${sk.id}`), {
      body: { ip_allow_list: ["192.0.2.0/24"] },
      headers: from("203.0.113.5"),
    });
    expect(r.status).toBe(200);
    expect(r.body.ip_allow_list).toEqual(["192.0.2.0/24"]);
    expectError(await xff.req("GET", "/v2/ping", { key: sk.secret, headers: from("203.0.113.5") }), 403);
  });

  test("allow-list rule 1: sub-account key create and update manage ip_allow_list too; [] clears it", async () => {
    const sub = await makeSub(emu);
    const sk = await makeKey(emu, ["routes:read:all"], { ip_allow_list: ["192.0.2.1"] }, sub.id);
    expect(sk.record.ip_allow_list).toEqual(["192.0.2.1/32"]);
    const r = await emu.req("PUT", emu.acct(`/sub-accounts/${sub.id}/api-keys/${sk.id}`), {
      body: { ip_allow_list: [] },
    });
    expect(r.body.ip_allow_list).toEqual([]);
  });
});
