// Sub-account states (docs/contract/endpoints/sub-accounts.md#states) and partial updates
// (docs/contract/conventions.md#partial-updates): sub-account states, parent
// suspension, domain verification and the check-dns cache, partial updates, immutable fields,
// webhook scope switching.
import { Domain, SubAccount, Webhook } from "../../../provider/api";
import { type Emu, expectError, makeKey, makeSub, start, uniq } from "./helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const subPath = (id: string, rest = "") => emu.acct(`/sub-accounts/${id}${rest}`);

describe("states and transitions (docs/contract/endpoints/sub-accounts.md#states)", () => {
  test("States: active → suspend {reason} → suspended → unsuspend → active; wrong-state moves are 409", async () => {
    const sub = await makeSub(emu);
    expect(sub.status).toBe("active");
    expectError(await emu.req("POST", subPath(sub.id, "/suspend"), { body: {} }), 400, /reason/);
    expectError(
      await emu.req("POST", subPath(sub.id, "/suspend"), { body: { reason: "x".repeat(501) } }),
      400,
      /reason/,
    );
    const s = await emu.req("POST", subPath(sub.id, "/suspend"), { body: { reason: "billing" } });
    expect(SubAccount.parse(s.body).status).toBe("suspended");
    expectError(await emu.req("POST", subPath(sub.id, "/suspend"), { body: { reason: "again" } }), 409, /suspended/);
    expectError(await emu.req("POST", subPath(sub.id, "/unsuspend"), { raw: "{}" }), 400, /no request body/);
    const u = await emu.req("POST", subPath(sub.id, "/unsuspend"));
    expect(u.body.status).toBe("active");
    expectError(await emu.req("POST", subPath(sub.id, "/unsuspend")), 409, /active/);
  });

  test("States: delete from any non-deleted state is a soft delete: gone from list and GET (404), present in the dump", async () => {
    const sub = await makeSub(emu);
    await emu.req("POST", subPath(sub.id, "/suspend"), { body: { reason: "r" } });
    expect((await emu.req("DELETE", subPath(sub.id))).body).toEqual({ message: "sub account deleted" });
    expectError(await emu.req("GET", subPath(sub.id)), 404, "sub account not found");
    expectError(await emu.req("DELETE", subPath(sub.id)), 404);
    expectError(await emu.req("PUT", subPath(sub.id), { body: { name: "n" } }), 404);
    const list = await emu.req("GET", emu.acct("/sub-accounts"));
    expect(list.body.data.map((s: { id: string }) => s.id)).not.toContain(sub.id);
    const dump = await emu.control.dumpState();
    expect(dump.accounts.find((a) => a.id === sub.id)).toMatchObject({ status: "deleted" });
  });

  test("States: parent suspension makes active sub accounts parent-suspended, and reinstatement reverses it", async () => {
    const a = await makeSub(emu);
    const b = await makeSub(emu);
    await emu.req("POST", subPath(b.id, "/suspend"), { body: { reason: "r" } });
    await emu.control.suspendParent(true);
    expect((await emu.req("GET", subPath(a.id))).body.status).toBe("parent-suspended");
    expect((await emu.req("GET", subPath(b.id))).body.status).toBe("suspended");
    // A suspended parent reads but cannot write.
    expectError(
      await emu.req("POST", emu.acct("/sub-accounts"), { body: { name: "n", website: "example.org" } }),
      403,
      /suspended/,
    );
    await emu.control.suspendParent(false);
    expect((await emu.req("GET", subPath(a.id))).body.status).toBe("active");
    expect((await emu.req("GET", subPath(b.id))).body.status).toBe("suspended");
    await emu.control.suspendParent(true);
    expectError(await emu.req("POST", subPath(a.id, "/unsuspend")), 403);
    await emu.control.suspendParent(false);
  });

  test("Updates: sub account and key PUTs are partial; empty or no-op bodies are 400", async () => {
    const sub = await makeSub(emu, "same-name");
    expectError(await emu.req("PUT", subPath(sub.id), { body: {} }), 400, /at least one/);
    expectError(await emu.req("PUT", subPath(sub.id), { body: { name: null } }), 400, /at least one/);
    expectError(await emu.req("PUT", subPath(sub.id), { body: { name: "same-name" } }), 400, /changes nothing/);
    const u = await emu.req("PUT", subPath(sub.id), { body: { monthly_credit: 5, name: "same-name" } });
    expect(u.body).toMatchObject({ name: "same-name", monthly_credit: 5, website: "example.org" });
    const k = await makeKey(emu, ["routes:read:all"]);
    expectError(await emu.req("PUT", emu.acct(`/api-keys/${k.id}`), { body: {} }), 400, /at least one/);
    expectError(
      await emu.req("PUT", emu.acct(`/api-keys/${k.id}`), { body: { scopes: ["routes:read:all"] } }),
      400,
      /changes nothing/,
    );
    const r = await emu.req("PUT", emu.acct(`/api-keys/${k.id}`), {
      body: { scopes: ["routes:read:all", "domains:read"], label: null },
    });
    expect(r.body).toMatchObject({ label: k.record.label, scopes: ["routes:read:all", "domains:read"] });
  });

  test("States: domain verification is flipped by the control surface; check-dns answers from a 60 s cache", async () => {
    const name = `${uniq("v")}.example.com`;
    const c = await emu.req("POST", emu.acct("/domains"), { body: { domain: name } });
    const d = Domain.parse(c.body);
    expect(d).toMatchObject({ dns_valid: false, last_dns_check_at: null });
    expect(d.dns_records.length).toBeGreaterThanOrEqual(3);
    const check = () => emu.req("POST", emu.acct(`/domains/${name}/check-dns`));
    expect((await check()).body.dns_valid).toBe(false);
    await emu.control.setDomainVerified(name, true, { apply: false });
    expect((await check()).body.dns_valid).toBe(false); // cached
    await emu.control.advanceClock(61_000);
    const after = await check();
    expect(after.body.dns_valid).toBe(true);
    expect(after.body.dns_records.every((r: { propagated: boolean }) => r.propagated)).toBe(true);
    const v = await emu.req("GET", emu.acct("/domains?dns_valid=true"));
    expect(v.body.data.map((x: { domain: string }) => x.domain)).toContain(name);
    // DNS records are deterministic: the same inputs give the same records.
    expect(
      (await emu.req("GET", emu.acct(`/domains/${name}`))).body.dns_records.map((r: { host: string }) => r.host),
    ).toEqual(d.dns_records.map((r) => r.host));
  });

  test("Updates: a domain's name and DKIM key are immutable; other fields are partial, empty selector clears", async () => {
    const name = `${uniq("im")}.example.com`;
    await emu.req("POST", emu.acct("/domains"), { body: { domain: name, dkim_selector: "sel1" } });
    expectError(
      await emu.req("PUT", emu.acct(`/domains/${name}`), { body: { domain: "other.example.com" } }),
      400,
      /^domain: cannot be changed/,
    );
    expectError(
      await emu.req("PUT", emu.acct(`/domains/${name}`), { body: { dkim_private_key: "x" } }),
      400,
      /dkim_private_key: cannot be changed/,
    );
    const u = await emu.req("PUT", emu.acct(`/domains/${name}`), { body: { tracking_subdomain: "trk" } });
    expect(u.body).toMatchObject({ tracking_subdomain: "trk", dkim_selector: "sel1" });
    expect(u.body.dns_records.some((r: { host: string }) => r.host === `trk.${name}`)).toBe(true);
    const cl = await emu.req("PUT", emu.acct(`/domains/${name}`), { body: { dkim_selector: "" } });
    expect(cl.body.dkim_selector).toBeNull();
    expectError(
      await emu.req("POST", emu.acct("/domains"), { body: { domain: "k.example.com", dkim_private_key: "not a pem" } }),
      400,
      /dkim_private_key/,
    );
  });

  test("Updates: webhook scope switching (global → scoped needs domains; → global clears; [] clears)", async () => {
    const w = await emu.req("POST", emu.acct("/webhooks"), {
      body: { name: "w", url: "https://h.example.com/", scope: "global", domains: ["ignored.example.com"] },
    });
    expect(Webhook.parse(w.body)).toMatchObject({ scope: "global", domains: [], enabled: true, on_delivered: false });
    expect(w.body.secret).toBeTruthy();
    const p = (body: unknown) => emu.req("PUT", emu.acct(`/webhooks/${w.body.id}`), { body });
    expectError(await p({ scope: "scoped" }), 400, /domains: must list at least one domain/);
    expectError(await p({ scope: "scoped", domains: [] }), 400, /domains/);
    expect((await p({ scope: "scoped", domains: ["A.example.com"] })).body).toMatchObject({
      scope: "scoped",
      domains: ["a.example.com"],
    });
    expect((await p({ on_bounced: true })).body).toMatchObject({
      scope: "scoped",
      domains: ["a.example.com"],
      on_bounced: true,
    });
    expect((await p({ domains: [] })).body).toMatchObject({ scope: "scoped", domains: [] });
    await p({ domains: ["b.example.com"] });
    expect((await p({ scope: "global" })).body).toMatchObject({ scope: "global", domains: [] });
    const g = await emu.req("GET", emu.acct(`/webhooks/${w.body.id}`));
    expect(g.body).not.toHaveProperty("secret");
  });

  test("States: SMTP credentials have no update (405); the password appears only at creation", async () => {
    const s = await emu.req("POST", emu.acct("/smtp-credentials"), {
      body: { name: "s", scope: "scoped", domains: ["m.example.com"] },
    });
    expect(s.status).toBe(201);
    expect(s.body.password).toBeTruthy();
    expect(s.body).toMatchObject({
      object: "credential_smtp",
      scope: "scoped",
      domains: ["m.example.com"],
      sandbox: false,
    });
    expectError(await emu.req("PUT", emu.acct(`/smtp-credentials/${s.body.id}`), { body: { name: "t" } }), 405);
    const g = await emu.req("GET", emu.acct(`/smtp-credentials/${s.body.id}`));
    expect(g.body).not.toHaveProperty("password");
    expectError(
      await emu.req("POST", emu.acct("/smtp-credentials"), { body: { name: "s", scope: "scoped" } }),
      400,
      /domains: must list/,
    );
  });

  test("States: routes are created with defaults and the secret once; PUT is partial", async () => {
    const r = await emu.req("POST", emu.acct("/routes"), {
      body: { name: "r", url: "https://h.example.com/", recipient: "*@q.example.com" },
    });
    expect(r.body).toMatchObject({
      enabled: true,
      attachments: false,
      success_count: 0,
      last_request_at: null,
      secret: expect.any(String),
    });
    const u = await emu.req("PUT", emu.acct(`/routes/${r.body.id}`), { body: { enabled: false } });
    expect(u.body).toMatchObject({ enabled: false, name: "r", recipient: "*@q.example.com" });
    expect(u.body).not.toHaveProperty("secret");
    expectError(
      await emu.req("POST", emu.acct("/routes"), {
        body: { name: "r", url: "https://h.example.com/", recipient: "no-at-sign" },
      }),
      400,
      /recipient/,
    );
  });

  test("States: suppressions delete by email (+domain) and delete-all per domain", async () => {
    for (const e of ["a@s.example.com", "b@s.example.com"])
      await emu.req("POST", emu.acct("/suppressions"), {
        body: { email: e, domain: "s.example.com", expires_at: "2099-01-01T00:00:00Z" },
      });
    await emu.req("POST", emu.acct("/suppressions"), {
      body: { email: "c@s.example.com", expires_at: "2099-01-01T00:00:00Z" },
    });
    expectError(await emu.req("DELETE", emu.acct("/suppressions")), 400, /email: required/);
    expect((await emu.req("DELETE", emu.acct("/suppressions?email=a@s.example.com&domain=s.example.com"))).status).toBe(
      200,
    );
    expect((await emu.req("DELETE", emu.acct("/suppressions/all?domain=s.example.com"))).status).toBe(200);
    const left = await emu.req("GET", emu.acct("/suppressions?email=c@s.example.com"));
    expect(left.body.data).toHaveLength(1);
    expect((await emu.req("GET", emu.acct("/suppressions?domain=s.example.com"))).body.data).toHaveLength(0);
  });
});
