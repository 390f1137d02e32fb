// One shard's dns read (fleet/dns/shardDns.ts) against a fake shard state and service: each tenant's
// domain read with its own key, GET only; --check-dns one POST per domain and never a second; a shard
// never applied, a tenant or a domain not applied yet, a domain gone, a read refused; no key in what
// goes back to the fleet command.
import { StackNotFoundError } from "@pulumi/pulumi/automation";
import type { z } from "zod";
import { readShardDns, type ShardDnsSource } from "../../../../fleet/dns/shardDns";
import { shardOutputsOf } from "../../../../fleet/shardOutputs";
import type { Domain } from "../../../../provider/api";
import { TxmailApiError } from "../../../../provider/client";
import type { TenantEntry } from "../../../../sdk/nodejs/tenantsFile";

const SUB = {
  acme: "11111111-1111-4111-8111-111111111111",
  initech: "22222222-2222-4222-8222-222222222222",
  umbrella: "33333333-3333-4333-8333-333333333333",
  soylent: "44444444-4444-4444-8444-444444444444",
  globex: "55555555-5555-4555-8555-555555555555",
};
/** Key secrets as the service issues them (`<prefix>-sk-<64 characters>`). */
const keyOf = (tenant: string) => `${tenant.slice(0, 4)}-sk-${"k".repeat(60)}${tenant.slice(0, 4)}`;
const KEY_SECRET = /[a-z0-9]+-sk-[A-Za-z0-9]{64}/;

const domainRecord = (account: string, name: string, valid: boolean): Domain => ({
  object: "domain",
  id: "aaaaaaaa-0000-4000-8000-000000000001",
  created_at: "2026-11-27T08:00:00.000Z",
  updated_at: "2026-11-27T08:00:00.000Z",
  domain: name,
  account_id: account,
  dns_records: [
    {
      type: "CNAME",
      label: "DKIM",
      host: `txm1._domainkey.${name}`,
      content: "d.txmail.test",
      required: true,
      propagated: valid,
    },
    { type: "TXT", host: `_dmarc.${name}`, content: "v=DMARC1; p=none;", required: false, propagated: valid },
  ],
  last_dns_check_at: valid ? "2026-11-27T09:00:00.000Z" : null,
  dns_valid: valid,
  tracking_subdomain: null,
  return_path_subdomain: null,
  subscription_subdomain: null,
  media_subdomain: null,
  dkim_rotation_interval_days: null,
  dkim_selector: null,
  dsn_recipient: null,
  rotation_ready: false,
});

const error = (status: number, category: TxmailApiError["category"], method: string, path: string) =>
  new TxmailApiError({ status, category, serviceMessage: `${status}`, method, path, attempts: 1 });

/** The shard's state and the service: what each path answers, and every request with the key it came with. */
function fakeShard(o: { outputs: Record<string, unknown> | Error; answers: Record<string, Domain | Error> }) {
  const requests: string[] = [];
  const source: ShardDnsSource = {
    shard: "shard-001",
    outputs: async () => {
      if (o.outputs instanceof Error) throw o.outputs;
      return shardOutputsOf(o.outputs as Parameters<typeof shardOutputsOf>[0]);
    },
    api: (apiKey, account) => {
      const answer = async <T>(method: string, path: string, schema: z.ZodType<T, unknown>): Promise<T> => {
        requests.push(`${method} ${path} with ${apiKey === keyOf(tenantOf(account)) ? "its own key" : apiKey}`);
        const a = o.answers[`${method} ${path}`] ?? error(404, "not-found", method, path);
        if (a instanceof Error) throw a;
        return schema.parse(a);
      };
      return {
        get: (path, schema) => answer("GET", path, schema),
        post: async (path, _body, schema) => ({ data: await answer("POST", path, schema), replayed: false }),
      };
    },
  };
  return { source, requests };
}
const tenantOf = (account: string) => Object.entries(SUB).find(([, id]) => id === account)?.[0] ?? "?";

const entry = (name: string, domain?: string): TenantEntry => ({
  name,
  website: `${name}.example.com`,
  ...(domain && { domain }),
});
const stateOf = (tenants: Record<string, { domain?: string; key?: boolean }>) => ({
  summary: {
    value: Object.fromEntries(
      Object.entries(tenants).map(([t, s]) => [
        t,
        { subAccountId: SUB[t as keyof typeof SUB], status: "active", ...(s.domain && { domain: s.domain }) },
      ]),
    ),
    secret: false,
  },
  credentials: {
    value: Object.fromEntries(
      Object.entries(tenants).map(([t, s]) => [t, { bootstrapKey: s.key === false ? "" : keyOf(t), apiKeys: {} }]),
    ),
    secret: true,
  },
});
const domainPath = (tenant: keyof typeof SUB, name: string) => `/v2/accounts/${SUB[tenant]}/domains/${name}`;

describe("one shard's dns read", () => {
  const entries = [
    entry("acme", "mail.acme.example.com"),
    entry("initech", "mail.initech.example.com"),
    entry("globex"),
    entry("umbrella", "mail.umbrella.example.com"),
    entry("soylent", "mail.soylent.example.com"),
    entry("hooli", "mail.hooli.example.com"),
  ];
  const state = stateOf({
    acme: { domain: "mail.acme.example.com" },
    initech: { domain: "mail.initech.example.com" },
    globex: {},
    umbrella: { domain: "mail.umbrella.example.com" },
    soylent: { domain: "mail.soylent.example.com" },
  });
  const answers = {
    [`GET ${domainPath("acme", "mail.acme.example.com")}`]: domainRecord(SUB.acme, "mail.acme.example.com", true),
    [`GET ${domainPath("initech", "mail.initech.example.com")}`]: domainRecord(
      SUB.initech,
      "mail.initech.example.com",
      false,
    ),
    [`GET ${domainPath("umbrella", "mail.umbrella.example.com")}`]: error(
      403,
      "forbidden",
      "GET",
      domainPath("umbrella", "mail.umbrella.example.com"),
    ),
  };

  it("reads each domain once, with its tenant's own key, GET only; says what it could not read and why; sends back no key", async () => {
    const { source, requests } = fakeShard({ outputs: state, answers });
    const { tenants } = await readShardDns(source, entries, { checkDns: false });

    expect(requests.sort()).toEqual(
      [
        `GET ${domainPath("acme", "mail.acme.example.com")} with its own key`,
        `GET ${domainPath("initech", "mail.initech.example.com")} with its own key`,
        `GET ${domainPath("umbrella", "mail.umbrella.example.com")} with its own key`,
        `GET ${domainPath("soylent", "mail.soylent.example.com")} with its own key`,
      ].sort(),
    );
    expect(tenants.map((t) => [t.tenant, t.status, t.domain, t.dnsValid])).toEqual([
      ["acme", "read", "mail.acme.example.com", true],
      ["initech", "read", "mail.initech.example.com", false],
      ["globex", "no-domain", null, null],
      ["umbrella", "unreadable", "mail.umbrella.example.com", null],
      ["soylent", "deleted", "mail.soylent.example.com", null],
      ["hooli", "not-applied", null, null],
    ]);
    expect(tenants[0]).toEqual({
      tenant: "acme",
      shard: "shard-001",
      status: "read",
      domain: "mail.acme.example.com",
      dnsValid: true,
      lastCheckedAt: "2026-11-27T09:00:00.000Z",
      records: [
        {
          label: "DKIM",
          type: "CNAME",
          host: "txm1._domainkey.mail.acme.example.com",
          value: "d.txmail.test",
          required: true,
          propagated: true,
        },
        {
          label: null,
          type: "TXT",
          host: "_dmarc.mail.acme.example.com",
          value: "v=DMARC1; p=none;",
          required: false,
          propagated: true,
        },
      ],
    });
    expect(tenants[3]!.note).toMatch(/^GET \/v2\/accounts\/33333333-.*\/domains\/mail\.umbrella\.example\.com.*403/);
    expect(tenants[4]!.note).toBe("its shard's state still records it: txmail-fleet up makes it again");
    expect(tenants[5]!.note).toBe("not in shard-001's state yet: txmail-fleet up");
    expect(JSON.stringify(tenants)).not.toMatch(KEY_SECRET);
  });

  it("--check-dns: one POST check-dns per domain, its answer shown; a refused one is said, not retried, and the domain read as it stands", async () => {
    const checkPath = (tenant: keyof typeof SUB, name: string) => `${domainPath(tenant, name)}/check-dns`;
    const { source, requests } = fakeShard({
      outputs: stateOf({ acme: { domain: "mail.acme.example.com" }, initech: { domain: "mail.initech.example.com" } }),
      answers: {
        ...answers,
        [`POST ${checkPath("acme", "mail.acme.example.com")}`]: domainRecord(SUB.acme, "mail.acme.example.com", true),
        [`POST ${checkPath("initech", "mail.initech.example.com")}`]: error(
          429,
          "rate-limited",
          "POST",
          checkPath("initech", "mail.initech.example.com"),
        ),
      },
    });
    const { tenants } = await readShardDns(source, entries.slice(0, 2), { checkDns: true });
    expect(requests.sort()).toEqual(
      [
        `POST ${checkPath("acme", "mail.acme.example.com")} with its own key`,
        `POST ${checkPath("initech", "mail.initech.example.com")} with its own key`,
        `GET ${domainPath("initech", "mail.initech.example.com")} with its own key`,
      ].sort(),
    );
    expect(tenants.map((t) => [t.tenant, t.status, t.dnsValid, t.checkDns?.ok])).toEqual([
      ["acme", "read", true, true],
      ["initech", "read", false, false],
    ]);
    expect(tenants[1]!.checkDns).toEqual({ ok: false, error: expect.stringMatching(/check-dns.*429/) });
  });

  it("a shard never applied: every tenant says so, and nothing is asked of the service", async () => {
    const notFound = new StackNotFoundError(
      Object.assign(new Error("no stack named 'shard-001' found"), {
        stdout: "",
        stderr: "error: no stack named 'shard-001' found",
        code: 255,
        err: undefined,
      }) as never,
    );
    const { source, requests } = fakeShard({ outputs: notFound, answers });
    const { tenants } = await readShardDns(source, entries.slice(0, 3), { checkDns: true });
    expect(tenants.map((t) => [t.tenant, t.status, t.note])).toEqual(
      ["acme", "initech", "globex"].map((t) => [t, "not-applied", "shard-001 was never applied: txmail-fleet up"]),
    );
    expect(requests).toEqual([]);
  });

  it("a state that cannot be read fails the shard (the fleet command reports each tenant not read)", async () => {
    const { source } = fakeShard({ outputs: new Error("error: failed to decrypt: incorrect passphrase"), answers });
    await expect(readShardDns(source, entries, { checkDns: false })).rejects.toThrow(/incorrect passphrase/);
  });

  it("the tenants file ahead of the state: a domain added, changed or removed is said; the service's is shown", async () => {
    const { source } = fakeShard({
      outputs: stateOf({ acme: { domain: "mail.acme.example.com" }, initech: {}, globex: { key: false } }),
      answers,
    });
    const { tenants } = await readShardDns(
      source,
      [entry("acme", "news.acme.example.com"), entry("initech", "mail.initech.example.com"), entry("globex")],
      { checkDns: false },
    );
    expect(tenants.map((t) => [t.tenant, t.status, t.domain, t.note])).toEqual([
      [
        "acme",
        "read",
        "mail.acme.example.com",
        "the tenants file names news.acme.example.com: replaced at the next up",
      ],
      [
        "initech",
        "not-applied",
        null,
        "mail.initech.example.com is in the tenants file, not yet at the service: txmail-fleet up",
      ],
      ["globex", "no-domain", null, undefined],
    ]);
  });

  it("a tenant whose key the state does not hold (adopted) is not read, and says why", async () => {
    const { source, requests } = fakeShard({
      outputs: stateOf({ acme: { domain: "mail.acme.example.com", key: false } }),
      answers,
    });
    const { tenants } = await readShardDns(source, entries.slice(0, 1), { checkDns: false });
    expect(tenants.map((t) => [t.status, t.note])).toEqual([
      ["unreadable", "its shard's state holds no bootstrap key of this tenant (adopted key?)"],
    ]);
    expect(requests).toEqual([]);
  });
});
