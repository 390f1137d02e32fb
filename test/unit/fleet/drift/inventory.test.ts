// The inventory (fleet/drift/inventory.ts) against a fake service: what no stack manages, what a key
// may not list, a domain-scoped key, the account owner, and the policy pack's verdict on a hand-made key.
import type { z } from "zod";
import { listUnmanaged, readReach, type ListSource } from "../../../../fleet/drift/inventory";
import { TxmailApiError } from "../../../../provider/client";
import { routeRecord } from "../../../fixtures/records";

const SUB = "11111111-1111-4111-8111-111111111111";
const at = "2026-01-01T00:00:00.000Z";
const W1 = "aaaaaaaa-0000-4000-8000-000000000001";
const W2 = "aaaaaaaa-0000-4000-8000-000000000002";
const R9 = "aaaaaaaa-0000-4000-8000-000000000009";
const K1 = "aaaaaaaa-0000-4000-8000-00000000000a";
const K2 = "aaaaaaaa-0000-4000-8000-00000000000b";
const later = "2026-01-02T00:00:00.000Z";
const webhook = (id: string, name: string) => ({
  object: "webhook",
  id,
  created_at: at,
  updated_at: at,
  name,
  url: "https://a.example.com/x",
  enabled: true,
  on_reception: false,
  on_delivered: true,
  on_transient_error: false,
  on_failed: false,
  on_bounced: false,
  on_suppressed: false,
  on_opened: false,
  on_clicked: false,
  on_suppression_created: false,
  on_dns_error: false,
  scope: "global",
  domains: [],
  success_count: 0,
  error_count: 0,
  errors_since_last_success: 0,
  last_request_at: null,
});
const key = (id: string, label: string, allow: string[]) => ({
  object: "api_key",
  id,
  created_at: at,
  updated_at: at,
  last_used_at: null,
  account_id: SUB,
  label,
  public_key: "txm-pk-x",
  scopes: ["domains:read"],
  ip_allow_list: allow,
});
const route = (id: string, domain: string) => routeRecord({ id, name: `r-${domain}`, recipient: `x@${domain}` });

const error = (status: number, category: "forbidden" | "validation", message: string) =>
  new TxmailApiError({ status, category, serviceMessage: message, method: "GET", path: "/x", attempts: 1 });

/** A fake service: each path's answer (records, or an error to throw), and the requests it saw. */
function service(answers: Record<string, unknown[] | Error>): ListSource & { seen: string[] } {
  const seen: string[] = [];
  const answer = (path: string, query?: Record<string, string>) => {
    const at = query?.domain ? `${path}?domain=${query.domain}` : path;
    seen.push(at);
    const a = answers[at] ?? [];
    if (a instanceof Error) throw a;
    return a;
  };
  return {
    seen,
    list: <T>(path: string, schema: z.ZodType<T, unknown>, query?: Record<string, string>) =>
      (async function* () {
        for (const r of answer(path, query)) yield schema.parse(r);
      })(),
    get: async <T>(path: string, schema: z.ZodType<T, unknown>) => schema.parse({ object: "list", data: answer(path) }),
  };
}

describe("the drift inventory", () => {
  it("reports what no stack manages, once per kind, with the line that adopts it", async () => {
    const svc = service({ [`/v2/accounts/${SUB}/webhooks`]: [webhook(W1, "events"), webhook(W2, "sneaky")] });
    const out = await listUnmanaged(
      svc,
      { accountId: SUB, kinds: ["Webhook"], tenant: "acme" },
      new Set([`Webhook:${W1}`]),
    );
    expect(out.unmanaged).toEqual([
      {
        kind: "Webhook",
        tenant: "acme",
        id: W2,
        title: "sneaky",
        importLine: `pulumi import txmail:index:Webhook acme-sneaky ${W2}`,
      },
    ]);
    expect(out.listCalls).toBe(1);
    expect(svc.seen).toEqual([`/v2/accounts/${SUB}/webhooks`]);
  });

  it("says which families the key may not list, and the scope that would list them", async () => {
    const svc = service({ [`/v2/accounts/${SUB}/suppressions`]: error(403, "forbidden", "missing scope") });
    const out = await listUnmanaged(svc, { accountId: SUB, kinds: ["Suppression"], tenant: "acme" }, new Set());
    expect(out.notListed).toEqual([
      { tenant: "acme", kind: "Suppression", reason: "the key may not list them (needs suppressions:read)" },
    ]);
    expect(out.unmanaged).toEqual([]);
  });

  it("lists per domain with a key whose read scopes name domains, and says what that leaves out", async () => {
    const svc = service({
      [`/v2/accounts/${SUB}/routes`]: error(
        400,
        "validation",
        "domain: required with a domain-scoped routes:read:{domain} key",
      ),
      [`/v2/accounts/${SUB}/routes?domain=mail.a.example.com`]: [route(R9, "mail.a.example.com")],
    });
    const out = await listUnmanaged(
      svc,
      { accountId: SUB, kinds: ["Route"], tenant: "acme", domains: ["mail.a.example.com"] },
      new Set(),
    );
    expect(out.unmanaged.map((u) => u.id)).toEqual([R9]);
    expect(out.listCalls).toBe(2);
    expect(out.notListed[0]!.reason).toMatch(/only those of mail.a.example.com listed .*routes:read:all/);
  });

  it("leaves out the account's owner, the member the service made with the account", async () => {
    const member = (user: string, created: string) => ({
      user_id: user,
      account_id: SUB,
      role: "Administrator",
      created_at: created,
      updated_at: created,
    });
    const owner = "22222222-2222-4222-8222-222222222222";
    const other = "33333333-3333-4333-8333-333333333333";
    const svc = service({ [`/v2/accounts/${SUB}/members`]: [member(owner, at), member(other, later)] });
    const out = await listUnmanaged(svc, { accountId: SUB, kinds: ["AccountMember"], ownerSince: at }, new Set());
    expect(out.unmanaged.map((u) => u.id)).toEqual([other]);
  });

  it("flags a hand-made key that the policy pack's mandatory rules would refuse", async () => {
    const parent = "44444444-4444-4444-8444-444444444444";
    const svc = service({
      [`/v2/accounts/${parent}/sub-accounts/${SUB}/api-keys`]: [
        key(K1, "by hand", ["0.0.0.0/1", "128.0.0.0/1"]),
        key(K2, "careful", ["203.0.113.0/24"]),
      ],
    });
    const out = await listUnmanaged(
      svc,
      { accountId: parent, kinds: ["SubAccountApiKey"], props: { subAccountId: SUB }, tenant: "acme" },
      new Set(),
    );
    expect(out.unmanaged.map((u) => [u.id, u.policy ?? ""])).toEqual([
      [K1, expect.stringMatching(/^ip-allow-list-no-allow-all \(mandatory\): .*every IPv4 address/)],
      [K2, ""],
    ]);
    expect(out.unmanaged[0]!.importLine).toBe(`pulumi import txmail:index:SubAccountApiKey acme-by-hand ${SUB}/${K1}`);
  });

  it("with the key's scopes known, asks only for what the key may list: one request per kind at most", async () => {
    const svc = service({
      [`/v2/accounts/${SUB}/routes`]: [route(R9, "mail.a.example.com")],
      [`/v2/accounts/${SUB}/routes?domain=mail.a.example.com`]: [route(R9, "mail.a.example.com")],
    });
    const keyScopes = ["domains:read", "routes:read:mail.a.example.com", "webhooks:read:all"];
    const out = await listUnmanaged(
      svc,
      { accountId: SUB, kinds: ["Route", "Webhook", "Suppression"], tenant: "acme", keyScopes },
      new Set(),
    );
    expect(svc.seen).toEqual([`/v2/accounts/${SUB}/routes?domain=mail.a.example.com`, `/v2/accounts/${SUB}/webhooks`]);
    expect(out.listCalls).toBe(2);
    expect(out.notListed.map((n) => [n.kind, n.reason])).toEqual([
      ["Route", expect.stringMatching(/^only those of mail.a.example.com listed/)],
      ["Suppression", "the key may not list them (needs suppressions:read)"],
    ]);
  });

  it.each([
    ["routes:read:all", ["routes:read:all", "domains:read"], "all"],
    ["routes:read:all", ["routes:read:a.example.com", "routes:write:b.example.com"], { domains: ["a.example.com"] }],
    ["routes:read:all", ["webhooks:read:all"], "none"],
    ["suppressions:read", ["suppressions:read"], "all"],
    ["suppressions:read", ["suppressions:write"], "none"],
  ])("a key reaches %s with %j: %j", (wide, scopes, reach) => {
    expect(readReach(wide, scopes)).toEqual(reach);
  });
});
