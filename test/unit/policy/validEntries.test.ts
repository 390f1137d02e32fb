// ip-allow-list-valid-entries: malformed or ambiguous entries, non-strings, non-lists.
import { validateAllowListEntries } from "../../../policy/rules/validAllowList";
import { key, run, UNKNOWN } from "./harness";

const FIX = /write a CIDR block or bare address such as 203\.0\.113\.0\/24/;

describe("ip-allow-list-valid-entries", () => {
  it.each([
    ["10.1", /ambiguous/],
    ["010.0.0.1", /ambiguous/],
    ["0x0a.0.0.1", /ambiguous/],
    ["10.0.0.256", /not an IP address/],
    ["10.0.0.0/33", /invalid prefix length/],
    ["2001:db8::/129", /invalid prefix length/],
    ["10.0.0.0/08", /invalid prefix length/],
    ["10.0.0.1/", /invalid prefix length/],
    ["", /empty/],
    ["10.0.0.1 ", /whitespace/],
    ["fe80::1%eth0", /zone id/],
    ["10.0.0.0/255.0.0.0", /netmask/],
    ["mail.example.com", /not an IP address/],
    ["::ffff:010.0.0.1", /ambiguous/],
    ["::10.0.0.1", /IPv4-compatible/],
  ])("rejects %j, naming resource, entry and fix", async (entry, why) => {
    const messages = await run(validateAllowListEntries, key(["203.0.113.0/24", entry], { name: "ci" }));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("ApiKey 'ci': ipAllowList[1]:");
    expect(messages[0]).toContain(`'${entry}'`);
    expect(messages[0]).toMatch(why);
    expect(messages[0]).toMatch(FIX);
  });

  it.each([
    [["203.0.113.0/24", "198.51.100.7", "2001:db8::/48", "::ffff:10.0.0.0/104"]],
    [["10.1.2.3/8"]], // host bits are cleared, as the service does
    [["2001:DB8::1"]],
    [[]],
  ])("accepts %j", async (entries) => {
    expect(await run(validateAllowListEntries, key(entries))).toEqual([]);
  });

  it.each([
    [null, "null"],
    [42, "number 42"],
    [["10.0.0.0/8"], "a list"],
    [{ cidr: "10.0.0.0/8" }, "an object"],
  ])("rejects a non-string entry (%j)", async (entry, shown) => {
    const [m] = await run(validateAllowListEntries, key(["203.0.113.0/24", entry]));
    expect(m).toContain(`ipAllowList[1]: ${shown} is not a string`);
  });

  it("rejects a single string given instead of a list, and still checks it", async () => {
    const messages = await run(validateAllowListEntries, key("10.1"));
    expect(messages).toEqual([
      expect.stringMatching(/ipAllowList: is not a list[^\n]*; ipAllowList\[0\]: '10\.1' is an ambiguous/),
    ]);
  });

  it("reports every invalid entry, with its index in the program's list, skipping unknown ones", async () => {
    const messages = await run(validateAllowListEntries, key([UNKNOWN, "10.1", UNKNOWN, "x", "10.0.0.1"]));
    expect(messages).toEqual([expect.stringMatching(/ipAllowList\[1\]: '10\.1'[^\n]*; ipAllowList\[3\]: 'x'/)]);
  });

  it("reports nothing for an absent or unknown list", async () => {
    expect(await run(validateAllowListEntries, key(undefined))).toEqual([]);
    expect(await run(validateAllowListEntries, key(UNKNOWN))).toEqual([]);
  });
});
