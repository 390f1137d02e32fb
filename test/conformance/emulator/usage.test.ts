// Sub-account usage (docs/contract/endpoints/sub-accounts.md#usage-response): receptions (accepted messages, one per recipient) per parent,
// active and removed sub accounts, proportional allocated_cost, current billing period.
import { SubAccountUsage } from "../../../provider/api";
import { type Emu, expectError, makeKey, makeSub, start, verifiedDomain } from "./helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

async function send(accountId: string, key: string, domain: string, n: number) {
  const r = await emu.req("POST", emu.acct("/messages", accountId), {
    key,
    body: {
      from: { email: `me@${domain}` },
      recipients: Array.from({ length: n }, (_, i) => ({ email: `r${i}@dest.example.com` })),
      subject: "s",
      text_content: "t",
    },
  });
  expect(r.status).toBe(202);
}

describe("Sub-account usage", () => {
  test("Sub-account usage: receptions and proportional allocated_cost for parent, active and removed sub accounts", async () => {
    await verifiedDomain(emu, "parent.example.com");
    await send(emu.accountId, emu.apiKey, "parent.example.com", 4);
    const a = await makeSub(emu, "alpha");
    const b = await makeSub(emu, "beta");
    for (const [sub, n] of [
      [a, 10],
      [b, 6],
    ] as const) {
      const k = await makeKey(emu, ["domains:write", "messages:send:all"], {}, sub.id);
      const dom = `${sub.name}.example.com`;
      await verifiedDomain(emu, dom, sub.id, k.secret);
      await send(sub.id, k.secret, dom, n);
    }
    await emu.req("DELETE", emu.acct(`/sub-accounts/${b.id}`));
    const r = await emu.req("GET", emu.acct("/sub-accounts/usage"));
    const u = SubAccountUsage.parse(r.body);
    expect(u.allocation_method).toBe("proportional");
    expect(u.currency).toMatch(/^[a-z]{3}$/);
    expect(u.allocation_note).toMatch(/share/);
    expect(u.parent).toMatchObject({ account_id: emu.accountId, reception_count: 4 });
    expect(u.sub_accounts).toEqual([
      { account_id: a.id, name: "alpha", reception_count: 10, allocated_cost: expect.any(Number) },
    ]);
    expect(u.removed_sub_accounts.reception_count).toBe(6);
    expect(u.total.reception_count).toBe(20);
    const parts = u.parent.allocated_cost + u.sub_accounts[0]!.allocated_cost + u.removed_sub_accounts.allocated_cost;
    expect(parts).toBeCloseTo(u.total.allocated_cost, 6);
    expect(u.sub_accounts[0]!.allocated_cost / u.total.allocated_cost).toBeCloseTo(10 / 20, 6);
    expect(Date.parse(u.billing_period.start)).toBeLessThan(Date.parse(u.billing_period.end));
    const sa = await emu.req("GET", emu.acct(`/sub-accounts/${a.id}`));
    expect(sa.body.domain_count).toBe(1);
    expect(sa.body.last_activity_at).not.toBeNull();
  });

  test("Sub-account usage: a new billing period starts from zero (clock advanced past the period end)", async () => {
    const before = SubAccountUsage.parse((await emu.req("GET", emu.acct("/sub-accounts/usage"))).body);
    const now = Date.parse((await emu.control.clock()).now);
    await emu.control.advanceClock(Date.parse(before.billing_period.end) - now + 1000);
    const after = SubAccountUsage.parse((await emu.req("GET", emu.acct("/sub-accounts/usage"))).body);
    expect(after.billing_period.start).toBe(before.billing_period.end);
    expect(after.total).toEqual({ reception_count: 0, allocated_cost: 0 });
  });

  test("Sub-account usage: needs sub-accounts:usage and a parent credential", async () => {
    const k = await makeKey(emu, ["sub-accounts:read"]);
    expectError(await emu.req("GET", emu.acct("/sub-accounts/usage"), { key: k.secret }), 403, "sub-accounts:usage");
    const sub = await makeSub(emu);
    const sk = await makeKey(emu, ["routes:read:all"], {}, sub.id);
    expectError(await emu.req("GET", emu.acct("/sub-accounts/usage", sub.id), { key: sk.secret }), 403);
  });
});
