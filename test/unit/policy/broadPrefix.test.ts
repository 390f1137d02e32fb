// ip-allow-list-broad-prefix: thresholds (defaults /16 and /32) and their config.
import { BROAD_PREFIX_DEFAULTS, validateBroadPrefix } from "../../../policy/rules/broadPrefix";
import { key, run, UNKNOWN } from "./harness";

describe("ip-allow-list-broad-prefix", () => {
  it("defaults to IPv4 /16 and IPv6 /32", () => {
    expect(BROAD_PREFIX_DEFAULTS).toEqual({ minIPv4PrefixLength: 16, minIPv6PrefixLength: 32 });
  });

  it.each(["10.0.0.0/8", "100.64.0.0/10", "172.16.0.0/15", "0.0.0.0/1", "2001:d00::/24", "::/1", "2000::/3"])(
    "reports %s by default",
    async (entry) => {
      const [m, ...rest] = await run(validateBroadPrefix, key([entry], { name: "wide" }));
      expect(rest).toEqual([]);
      expect(m).toContain(`ApiKey 'wide': ipAllowList[0]: '${entry}'`);
      expect(m).toMatch(/list your senders' own addresses or narrower blocks/);
      expect(m).toMatch(/minIPv[46]PrefixLength/);
    },
  );

  it.each(["172.16.0.0/16", "203.0.113.0/24", "198.51.100.7", "2001:db8::/32", "2001:db8:1::/48", "2001:db8::1"])(
    "accepts %s by default",
    async (entry) => {
      expect(await run(validateBroadPrefix, key([entry]))).toEqual([]);
    },
  );

  it("names the canonical block and its size", async () => {
    const [m] = await run(validateBroadPrefix, key(["::ffff:10.1.2.3/104"]));
    expect(m).toContain("'::ffff:10.1.2.3/104' (10.0.0.0/8) is a /8 block (16,777,216 addresses)");
    expect(m).toContain("broader than the /16 this pack accepts for IPv4");
  });

  it.each([
    [{ minIPv4PrefixLength: 8 }, "10.0.0.0/8", 0],
    [{ minIPv4PrefixLength: 24 }, "172.16.0.0/16", 1],
    [{ minIPv4PrefixLength: 24 }, "203.0.113.0/24", 0],
    [{ minIPv6PrefixLength: 48 }, "2001:db8::/32", 1],
    [{ minIPv6PrefixLength: 16 }, "2001:d00::/24", 0],
    [{ minIPv4PrefixLength: "24" }, "172.16.0.0/16", 0], // wrong type: default applies
    [{ minIPv4PrefixLength: 99 }, "172.16.0.0/16", 0], // out of range: default applies
  ])("config %j changes the outcome for %s", async (config, entry, count) => {
    expect(await run(validateBroadPrefix, key([entry], { config }))).toHaveLength(count);
  });

  it("leaves allow-alls and invalid entries to the mandatory rules, and reports a block once", async () => {
    const list = ["0.0.0.0/0", "10.1", "10.0.0.0/8", "10.9.9.9/8", UNKNOWN];
    expect(await run(validateBroadPrefix, key(list))).toEqual([expect.stringContaining("ipAllowList[2]")]);
  });

  it("reports every broad block of a key in one finding, the broadest first", async () => {
    const messages = await run(
      validateBroadPrefix,
      key(["172.16.0.0/12", "203.0.113.0/24", "10.0.0.0/8", "2001::/16"]),
    );
    expect(messages).toEqual([
      expect.stringMatching(
        /ipAllowList\[2\]: '10\.0\.0\.0\/8'.*; ipAllowList\[0\]: '172\.16\.0\.0\/12'.*; ipAllowList\[3\]/,
      ),
    ]);
    expect(messages[0]).toContain("minIPv4PrefixLength or ip-allow-list-broad-prefix.minIPv6PrefixLength");
  });

  it("ignores webhooks and routes", async () => {
    expect(await run(validateBroadPrefix, { kind: "Route", props: { ipAllowList: ["10.0.0.0/8"] } })).toEqual([]);
  });
});
