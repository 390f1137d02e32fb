// ip-allow-list-no-allow-all: every spelling of "everyone" and every combination covering a family.
import { validateNoAllowAll } from "../../../policy/rules/noAllowAll";
import { validateAllowListEntries } from "../../../policy/rules/validAllowList";
import { key, run, UNKNOWN } from "./harness";

describe("ip-allow-list-no-allow-all", () => {
  it.each([
    "0.0.0.0/0",
    "::/0",
    "0:0:0:0:0:0:0:0/0",
    "0000:0000:0000:0000:0000:0000:0000:0000/0",
    "::0/0",
    "10.0.0.0/0", // any address with prefix 0
    "203.0.113.7/0",
    "2001:db8::/0",
    "::ffff:0:0/96", // IPv4-mapped: the whole IPv4 space
    "::ffff:0.0.0.0/96",
    "::FFFF:198.51.100.1/96",
    "::0.0.0.0/0",
    // Spellings the service would not parse, but which mean "everyone".
    "0/0",
    "0.0/0",
    "00.0.0.0/0",
    "0x0/0",
    "0.0.0.0/00",
    "0.0.0.0/0.0.0.0",
    " 0.0.0.0/0",
    "::/0 ",
    "*",
    "any",
    "ANY",
    "all",
  ])("rejects %j, naming resource, entry and fix", async (entry) => {
    const messages = await run(validateNoAllowAll, key(["203.0.113.0/24", entry]));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("ApiKey 'sender'");
    expect(messages[0]).toContain("ipAllowList[1]");
    expect(messages[0]).toContain(`'${entry}'`);
    expect(messages[0]).toMatch(/list the CIDR blocks of your senders instead/);
  });

  it("says which canonical allow-all a spelling denotes", async () => {
    const [m] = await run(validateNoAllowAll, key(["::ffff:0:0/96"]));
    expect(m).toMatch(/every IPv4 address \(same as 0\.0\.0\.0\/0\)/);
  });

  it("does not also report the unparseable allow-all spellings as merely invalid", async () => {
    expect(await run(validateAllowListEntries, key(["0/0", "*", "0.0.0.0/0.0.0.0"]))).toEqual([]);
  });

  it.each([
    [["0.0.0.0/1", "128.0.0.0/1"], "IPv4"],
    [["::/1", "8000::/1"], "IPv6"],
    [["::ffff:0.0.0.0/97", "128.0.0.0/1"], "IPv4"], // mapped half + plain half
    [["0.0.0.0/2", "64.0.0.0/2", "128.0.0.0/2", "192.0.0.0/2", "10.0.0.0/8"], "IPv4"],
    [Array.from({ length: 16 }, (_, i) => `${i * 16}.0.0.0/4`), "IPv4"],
  ])("rejects entries that together cover a family: %j", async (entries, family) => {
    const messages = await run(validateNoAllowAll, key(entries, { name: "wide" }));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("ApiKey 'wide': ipAllowList:");
    expect(messages[0]).toContain(`cover every ${family} address`);
    expect(messages[0]).toMatch(/list the CIDR blocks of your senders instead/);
  });

  it("reports both families when both are covered, in one finding for the key", async () => {
    const messages = await run(validateNoAllowAll, key(["0.0.0.0/1", "128.0.0.0/1", "::/1", "8000::/1"]));
    expect(messages).toEqual([expect.stringMatching(/every IPv4 address[^\n]*; [^\n]*every IPv6 address/)]);
  });

  it("lists every allow-all entry of a key in one finding", async () => {
    const messages = await run(validateNoAllowAll, key(["0.0.0.0/0", "203.0.113.0/24", "::/0"]));
    expect(messages).toEqual([
      expect.stringMatching(/^ApiKey 'sender': ipAllowList\[0\]: '0\.0\.0\.0\/0' .*; ipAllowList\[2\]: '::\/0'/),
    ]);
  });

  it.each([
    [["203.0.113.0/24"]],
    [["0.0.0.0"]], // one address, 0.0.0.0/32
    [["0.0.0.0/1"]], // half of IPv4: broad (advisory), not all
    [["::/1"]],
    [["0.0.0.0/1", "128.0.0.0/2", "192.0.0.0/3"]], // leaves 224.0.0.0/3
    [["::ffff:10.0.0.0/104", "2001:db8::/32"]],
    [["10.0.0.0/8", "10.0.0.0/8"]],
    [[]],
  ])("accepts %j", async (entries) => {
    expect(await run(validateNoAllowAll, key(entries))).toEqual([]);
  });

  it("applies to sub-account keys, under their own name", async () => {
    const call = { kind: "SubAccountApiKey", name: "tenant-a-bootstrap", props: { ipAllowList: ["::/0"] } };
    expect(await run(validateNoAllowAll, call)).toEqual([
      expect.stringContaining("SubAccountApiKey 'tenant-a-bootstrap'"),
    ]);
  });

  it("ignores other resources, including webhooks with the same input name", async () => {
    expect(await run(validateNoAllowAll, { kind: "Webhook", props: { ipAllowList: ["0.0.0.0/0"] } })).toEqual([]);
    expect(await run(validateNoAllowAll, { kind: "aws:ec2/securityGroup:SecurityGroup", props: {} })).toEqual([]);
  });

  it("still reports a known allow-all next to unknown entries", async () => {
    const messages = await run(validateNoAllowAll, key([UNKNOWN, "0.0.0.0/0", UNKNOWN]));
    expect(messages).toEqual([expect.stringContaining("ipAllowList[1]: '0.0.0.0/0'")]);
  });

  it("still reports known entries covering a family next to unknown ones", async () => {
    const messages = await run(validateNoAllowAll, key(["0.0.0.0/1", UNKNOWN, "128.0.0.0/1"]));
    expect(messages).toEqual([expect.stringContaining("cover every IPv4 address")]);
  });

  it("reports nothing for a wholly unknown list (it is checked again at up)", async () => {
    expect(await run(validateNoAllowAll, key(UNKNOWN))).toEqual([]);
  });

  it("reads a single string given instead of a list", async () => {
    expect(await run(validateNoAllowAll, key("0.0.0.0/0"))).toHaveLength(1);
  });
});
