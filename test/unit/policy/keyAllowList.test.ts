// sub-account-key-requires-allow-list: a missing or empty ipAllowList is allow-all (the service's
// rule), so a key without one is mandatory when its scopes can change the account and advisory when
// it can only send or read or the policy config accepts it. Every key kind: the account's keys, sub
// accounts' keys, and the Tenant's (children of txmail:index:Tenant; a tenants file makes the same).
import { keyAllowList, validateKeyAllowList } from "../../../policy/rules/keyAllowList";
import { type Call, fakeArgs, runWithLevels, UNKNOWN } from "./harness";

const TENANT = "txmail:index:Tenant";

/** The three ways a key is written, each with the name the pack sees. */
const keys = {
  "account key": (props: Record<string, unknown>): Call => ({
    kind: "ApiKey",
    name: "deployer",
    props: { label: "deployer", ...props },
  }),
  "sub-account key": (props: Record<string, unknown>): Call => ({
    kind: "SubAccountApiKey",
    name: "tenant-ci",
    props: { subAccountId: "sa-1", label: "ci", ...props },
  }),
  "tenant bootstrap key": (props: Record<string, unknown>): Call => ({
    kind: "SubAccountApiKey",
    name: "acme-bootstrap",
    parentType: TENANT,
    props: { subAccountId: "sa-1", label: "acme bootstrap", ...props },
  }),
  "tenant app key": (props: Record<string, unknown>): Call => ({
    kind: "SubAccountApiKey",
    name: "acme-app",
    parentType: TENANT,
    props: { subAccountId: "sa-1", label: "acme app", ...props },
  }),
};
type KeyWay = keyof typeof keys;
const ways = Object.keys(keys) as KeyWay[];

const CHANGE_SCOPES = ["messages:send:mail.example.com", "api-keys:write", "sub-accounts:delete"];
const SEND_ONLY = ["messages:send:mail.example.com", "messages:read:all"];
const lists: Array<[string, Record<string, unknown>]> = [
  ["missing", {}],
  ["null", { ipAllowList: null }],
  ["empty", { ipAllowList: [] }],
];

const findings = (call: Call, config?: Record<string, unknown>) =>
  runWithLevels(validateKeyAllowList, { ...call, config });
const with_ = (way: KeyWay, list: Record<string, unknown>, scopes: unknown) => keys[way]({ scopes, ...list });
const nameOf = (way: KeyWay) => keys[way]({}).name!;
const kindOf = (way: KeyWay) => keys[way]({}).kind;
/** The key's URN, with its parent's type for a Tenant's keys, on the face the suite runs. */
const urnOf = (way: KeyWay) => fakeArgs(keys[way]({})).urn;

describe("sub-account-key-requires-allow-list", () => {
  it("is mandatory by default, and covers the account's keys by default", () => {
    expect(keyAllowList.enforcementLevel).toBe("mandatory");
    expect(keyAllowList.configSchema?.properties.includeApiKeys).toMatchObject({ default: true });
    expect(keyAllowList.configSchema?.properties.keysWithoutAllowList).toMatchObject({ default: [] });
  });

  describe.each(ways)("%s", (way) => {
    it.each(lists)(
      "%s list, scopes that change the account: mandatory, naming key, scopes and line",
      async (_, list) => {
        const [f, ...rest] = await findings(with_(way, list, CHANGE_SCOPES));
        expect(rest).toEqual([]);
        expect(f.level).toBe("policy"); // the policy's level: mandatory unless the config lowers it
        expect(f.message).toContain(
          `${kindOf(way)} '${nameOf(way)}' has ${"ipAllowList" in list && list.ipAllowList !== null ? "an empty" : "no"} ipAllowList`,
        );
        expect(f.message).toContain("no restriction: the key works from any address");
        expect(f.message).toContain("its scopes can change the account: 'api-keys:write', 'sub-accounts:delete'");
        expect(f.message).not.toContain("messages:send"); // the reason is the change scopes
        expect(f.message).toContain('ipAllowList: ["<your CI egress>/32"]');
        expect(f.message).toContain(
          `list '${nameOf(way)}' in sub-account-key-requires-allow-list.keysWithoutAllowList`,
        );
      },
    );

    it.each(lists)("%s list, scopes that only send or read: advisory", async (_, list) => {
      const [f, ...rest] = await findings(with_(way, list, SEND_ONLY));
      expect(rest).toEqual([]);
      expect(f.level).toBe("advisory");
      expect(f.message).toContain(`${kindOf(way)} '${nameOf(way)}' has`);
      expect(f.message).toContain(
        "Its scopes only send or read ('messages:send:mail.example.com', 'messages:read:all')",
      );
      expect(f.message).toContain(`ipAllowList: ["<your senders' egress>/32"]`);
    });

    it.each([
      ["by name", () => ({ keysWithoutAllowList: ["someone-else", nameOf(way)] }), () => `'${nameOf(way)}'`],
      ["by URN", () => ({ keysWithoutAllowList: [urnOf(way)] }), () => `'${urnOf(way)}'`],
    ])("opted out %s in keysWithoutAllowList: advisory, saying which opt-out", async (_, config, listed) => {
      for (const [, list] of lists) {
        const [f, ...rest] = await findings(with_(way, list, CHANGE_SCOPES), config());
        expect(rest).toEqual([]);
        expect(f.level).toBe("advisory");
        expect(f.message).toContain("its scopes can change the account: 'api-keys:write', 'sub-accounts:delete'");
        expect(f.message).toContain(
          `Advisory, not mandatory, because the policy config lists ${listed()} in sub-account-key-requires-allow-list.keysWithoutAllowList`,
        );
      }
    });

    it.each([
      [["203.0.113.0/24"]],
      [["198.51.100.7", "2001:db8::/48"]],
      [[UNKNOWN]], // one entry, known at `pulumi up`
      [["10.1"]], // set, though invalid: the entries rule reports it
      ["203.0.113.0/24"], // not a list: the entries rule reports it
    ])("a list with entries (%j): nothing, whatever the scopes", async (ipAllowList) => {
      expect(await findings(with_(way, { ipAllowList }, CHANGE_SCOPES))).toEqual([]);
      expect(await findings(with_(way, { ipAllowList }, SEND_ONLY))).toEqual([]);
    });
  });

  it.each([
    ["domains:write"],
    ["domains:delete:mail.example.com"],
    ["routes:write:mail.example.com"],
    ["webhooks:delete:all"],
    ["api-keys:delete"],
    ["sub-account-api-keys:write"],
    ["sub-accounts:write"],
    ["sub-accounts:suspend"],
    ["accounts:members:add"],
    ["accounts:write"],
    ["accounts:billing"],
    ["suppressions:wipe"],
    ["messages:cancel:all"],
    ["not-a-scope"], // what it grants is unknown: treated as a change
  ])("%s can change the account: mandatory", async (scope) => {
    const [f] = await findings(keys["account key"]({ scopes: ["messages:send:all", scope] }));
    expect(f).toMatchObject({ level: "policy" });
    expect(f.message).toContain(`its scopes can change the account: '${scope}'`);
  });

  it.each([
    [["messages:send:all"]],
    [["domains:read", "api-keys:read", "sub-accounts:read", "sub-accounts:usage", "statistics-transactional:read:all"]],
    [[]], // no scopes at all: the provider rejects it, and it could do nothing
    [null],
  ])("%j only sends or reads: advisory", async (scopes) => {
    expect(await findings(keys["account key"]({ scopes }))).toEqual([
      { level: "advisory", message: expect.stringContaining("ApiKey 'deployer' has no ipAllowList") },
    ]);
  });

  it("lists many change scopes shortly", async () => {
    const scopes = Array.from({ length: 10 }, (_, i) => `routes:write:d${i}.example.com`);
    const [f] = await findings(keys["account key"]({ scopes }));
    expect(f.message).toContain("'routes:write:d7.example.com' and 2 more");
  });

  it("tells a Tenant's keys where the line goes", async () => {
    const [bootstrap] = await findings(with_("tenant bootstrap key", {}, CHANGE_SCOPES));
    expect(bootstrap.message).toContain(
      'Give the tenant bootstrapKey: { ipAllowList: ["<your CI egress>/32"] } (the same in a tenants file)',
    );
    const [app] = await findings(with_("tenant app key", {}, SEND_ONLY));
    expect(app.message).toContain(`under the tenant's apiKeys (the same in a tenants file)`);
    const [plain] = await findings(with_("sub-account key", {}, CHANGE_SCOPES));
    expect(plain.message).toContain('Add ipAllowList: ["<your CI egress>/32"] to it');
  });

  it("includeApiKeys: false lowers the account's keys to advisory, saying so, and no other key", async () => {
    const config = { includeApiKeys: false };
    expect(await findings(with_("account key", {}, CHANGE_SCOPES), config)).toEqual([
      {
        level: "advisory",
        message: expect.stringContaining(
          "Advisory, not mandatory, because the policy config sets sub-account-key-requires-allow-list.includeApiKeys to false",
        ),
      },
    ]);
    expect(await findings(with_("sub-account key", {}, CHANGE_SCOPES), config)).toEqual([
      { level: "policy", message: expect.stringContaining("SubAccountApiKey 'tenant-ci' has no ipAllowList") },
    ]);
  });

  it("an opt-out naming another key, or a config value of the wrong type, changes nothing", async () => {
    for (const config of [
      { keysWithoutAllowList: ["deployer-2", "urn:pulumi:dev::txmail-app::x::deployer"] },
      { keysWithoutAllowList: "deployer" },
      { includeApiKeys: "false" },
    ]) {
      expect(await findings(with_("account key", {}, CHANGE_SCOPES), config)).toEqual([
        { level: "policy", message: expect.stringContaining("ApiKey 'deployer' has no ipAllowList") },
      ]);
    }
  });

  it("waits for `pulumi up` while what decides the level is unknown", async () => {
    // Unknown list: it may be set. Unknown scopes, or only sends and reads known so far: the level
    // is not known yet. Both are known at `pulumi up`, where the rule runs again.
    expect(await findings(keys["account key"]({ ipAllowList: UNKNOWN, scopes: CHANGE_SCOPES }))).toEqual([]);
    expect(await findings(keys["account key"]({ scopes: UNKNOWN }))).toEqual([]);
    expect(await findings(keys["account key"]({ scopes: ["messages:send:all", UNKNOWN] }))).toEqual([]);
    // A known change scope is certain whatever the unknown ones turn out to be.
    expect(await findings(keys["account key"]({ scopes: ["api-keys:write", UNKNOWN] }))).toEqual([
      { level: "policy", message: expect.stringContaining("'api-keys:write'") },
    ]);
  });

  it("ignores webhooks and routes", async () => {
    expect(await findings({ kind: "Webhook", props: {} })).toEqual([]);
    expect(await findings({ kind: "Route", props: { scopes: CHANGE_SCOPES } })).toEqual([]);
  });
});
