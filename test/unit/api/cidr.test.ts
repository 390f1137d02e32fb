// Written from the service's rules (docs/contract/allow-lists.md: CIDR or bare address, /32 or /128,
// canonicalised, de-duplicated, allow-alls rejected, at most 100 after de-duplication) and the
// choices documented at the top of cidr.ts (host bits cleared, ambiguous IPv4 refused, mapped
// IPv6 folded to IPv4, prefix length 0 is the whole family in any spelling).
import {
  canonicalizeAllowList,
  canonicalizeEntry,
  coversFamily,
  isAllowAll,
  MAX_ALLOW_LIST_ENTRIES,
  prefixBreadth,
} from "../../../provider/api/cidr";

describe("canonicalizeEntry accepts", () => {
  it.each([
    // IPv4, bare and CIDR
    ["10.0.0.1", "10.0.0.1/32"],
    ["10.0.0.1/32", "10.0.0.1/32"],
    ["0.0.0.0/32", "0.0.0.0/32"],
    ["255.255.255.255", "255.255.255.255/32"],
    ["192.168.1.0/24", "192.168.1.0/24"],
    ["100.64.0.0/10", "100.64.0.0/10"],
    // host bits are cleared, not refused
    ["10.1.2.3/8", "10.0.0.0/8"],
    ["192.168.1.77/24", "192.168.1.0/24"],
    ["203.0.113.255/25", "203.0.113.128/25"],
    ["255.255.255.255/1", "128.0.0.0/1"],
    // IPv6, bare, expanded, compressed, upper case
    ["2001:db8::1", "2001:db8::1/128"],
    ["2001:DB8::1", "2001:db8::1/128"],
    ["2001:0DB8:0000:0000:0000:0000:0000:0001/128", "2001:db8::1/128"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1/128"], // first of equal zero runs compressed
    ["2001:0:0:1:0:0:0:1", "2001:0:0:1::1/128"], // longest zero run compressed
    ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1/128"], // a single zero group is not compressed
    ["::1", "::1/128"],
    ["::", "::/128"],
    ["0:0:0:0:0:0:0:0/128", "::/128"],
    ["1::", "1::/128"],
    ["2001:db8::/32", "2001:db8::/32"],
    ["2001:db8:ffff::/32", "2001:db8::/32"],
    ["2001:db8::1/64", "2001:db8::/64"],
    ["fe80::/10", "fe80::/10"],
    ["64:ff9b::192.0.2.1", "64:ff9b::c000:201/128"], // dotted tail outside the mapped range stays IPv6
    // IPv4-mapped IPv6 is the IPv4 address it carries
    ["::ffff:10.0.0.1", "10.0.0.1/32"],
    ["::FFFF:10.0.0.1", "10.0.0.1/32"],
    ["::ffff:a00:1", "10.0.0.1/32"],
    ["0:0:0:0:0:ffff:0a00:0001", "10.0.0.1/32"],
    ["::ffff:10.0.0.0/104", "10.0.0.0/8"],
    ["::ffff:10.1.2.3/120", "10.1.2.0/24"],
    ["::ffff:0:0/95", "::fffe:0:0/95"], // wider than the mapped range: still an IPv6 block
    // prefix length 0 is the whole family, whatever the address
    ["0.0.0.0/0", "0.0.0.0/0"],
    ["10.1.2.3/0", "0.0.0.0/0"],
    ["0/0", "0.0.0.0/0"],
    ["010.0.0.1/0", "0.0.0.0/0"],
    ["::/0", "::/0"],
    ["0:0:0:0:0:0:0:0/0", "::/0"],
    ["0000:0000:0000:0000:0000:0000:0000:0000/0", "::/0"],
    ["2001:db8::/0", "::/0"],
    ["::ffff:0:0/0", "::/0"],
    ["::0.0.0.0/0", "::/0"],
    ["::ffff:0:0/96", "0.0.0.0/0"],
    ["::ffff:0.0.0.0/96", "0.0.0.0/0"],
    ["::ffff:1.2.3.4/96", "0.0.0.0/0"],
    ["0:0:0:0:0:FFFF:0:0/96", "0.0.0.0/0"],
  ])("%s → %s", (entry, canonical) => {
    expect(canonicalizeEntry(entry)).toMatchObject({ ok: true, canonical });
  });
});

describe("canonicalizeEntry rejects", () => {
  it.each([
    ["", /empty/],
    [" 10.0.0.1", /whitespace \(write '10\.0\.0\.1\/32'\)/],
    ["10.0.0.1 ", /whitespace/],
    ["10.0.0.1\n", /whitespace/],
    ["10.0.0.0 /8", /whitespace/],
    ["\t", /whitespace/],
    ["10.0.0.1, 10.0.0.2", /whitespace/],
    // ambiguous IPv4: octal, hex, short forms, single number
    ["010.0.0.1", /ambiguous IPv4/],
    ["10.0.0.01", /ambiguous IPv4/],
    ["00.0.0.0", /ambiguous IPv4/],
    ["0x0a.0.0.1", /ambiguous IPv4/],
    ["0X0A000001", /ambiguous IPv4/],
    ["10.1", /ambiguous IPv4/],
    ["127.1", /ambiguous IPv4/],
    ["10.0.0", /ambiguous IPv4/],
    ["167772161", /ambiguous IPv4/],
    ["010.0.0.0/8", /ambiguous IPv4/],
    ["::ffff:010.0.0.1", /ambiguous IPv4 part '010\.0\.0\.1'/],
    ["::ffff:0x0a.0.0.1", /ambiguous IPv4 part/],
    // deprecated IPv4-compatible IPv6
    ["::10.0.0.1", /deprecated IPv4-compatible form; write the IPv4 address 10\.0\.0\.1/],
    ["::0.0.0.0/96", /deprecated IPv4-compatible/],
    // not addresses
    ["10.0.0.256", /not an IP address/],
    ["10.0.0.1.", /not an IP address/],
    ["1.2.3.4.5", /not an IP address/],
    ["example.com", /not an IP address/],
    ["localhost", /not an IP address/],
    ["*", /not an IP address/],
    ["any", /not an IP address/],
    ["/0", /not an IP address/],
    ["/8", /not an IP address/],
    ["[::1]", /not an IP address/],
    ["[::1]/128", /not an IP address/],
    ["1::2::3", /not an IP address/],
    ["2001:00db8::", /not an IP address/],
    ["1:2:3:4:5:6:7:8:9", /not an IP address/],
    ["gggg::", /not an IP address/],
    ["10.0.0.1-10.0.0.9", /not an IP address/],
    // prefix lengths
    ["10.0.0.1/33", /invalid prefix length '\/33' \(a number 0–32/],
    ["10.0.0.1/-1", /invalid prefix length/],
    ["10.0.0.1/", /invalid prefix length/],
    ["10.0.0.1/08", /invalid prefix length/],
    ["10.0.0.1/00", /invalid prefix length/],
    ["10.0.0.1/+8", /invalid prefix length/],
    ["10.0.0.1/8.5", /invalid prefix length/],
    ["10.0.0.1/0x8", /invalid prefix length/],
    ["10.0.0.0/8/8", /invalid prefix length/],
    ["2001:db8::/129", /invalid prefix length '\/129' \(a number 0–128/],
    ["::ffff:10.0.0.1/129", /invalid prefix length/],
    // netmask notation, with the prefix-length spelling to use
    ["10.0.0.0/255.0.0.0", /netmask notation '\/255\.0\.0\.0'; write the prefix length instead \('10\.0\.0\.0\/8'\)/],
    ["10.1.2.3/255.255.255.0", /\('10\.1\.2\.0\/24'\)/],
    ["10.0.0.0/255.0.255.0", /invalid prefix length/],
    ["2001:db8::/255.0.0.0", /invalid prefix length/],
    // zone ids
    ["fe80::1%eth0", /zone id/],
    ["fe80::1%eth0/64", /zone id/],
  ])("%j", (entry, why) => {
    const r = canonicalizeEntry(entry);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(why);
  });

  it("refuses a value that is not a string (inputs from untyped programs)", () => {
    expect(canonicalizeEntry(42 as unknown as string)).toEqual({ ok: false, message: "is not a string" });
  });
});

describe("isAllowAll", () => {
  it.each([
    "0.0.0.0/0",
    "::/0",
    "0/0",
    "10.0.0.0/0",
    "0:0:0:0:0:0:0:0/0",
    "::ffff:0:0/96",
    "::ffff:0.0.0.0/96",
    "2001:db8::/0",
  ])("%s allows every address", (entry) => expect(isAllowAll(entry)).toBe(true));

  it.each([
    "0.0.0.0/1",
    "0.0.0.0",
    "0.0.0.0/32",
    "::",
    "::/1",
    "::/128",
    "::ffff:0:0/95",
    "::ffff:0:0/97",
    "nonsense/0",
    "0.0.0.0/00",
  ])("%s does not", (entry) => expect(isAllowAll(entry)).toBe(false));
});

describe("prefixBreadth", () => {
  it.each([
    ["10.0.0.0/8", 4, 8, 1n << 24n],
    ["10.0.0.1/32", 4, 32, 1n],
    ["0.0.0.0/0", 4, 0, 1n << 32n],
    ["2001:db8::/32", 6, 32, 1n << 96n],
    ["::1/128", 6, 128, 1n],
  ] as const)("%s: IPv%d /%d, %d addresses", (canonical, family, prefix, addresses) => {
    expect(prefixBreadth(canonical)).toEqual({ family, prefix, addresses });
  });
});

describe("canonicalizeAllowList", () => {
  it("treats an empty list as no restriction", () => {
    expect(canonicalizeAllowList([])).toEqual({ canonical: [], problems: [] });
  });

  it("de-duplicates spellings of the same block, keeping first-seen order", () => {
    const r = canonicalizeAllowList([
      "10.0.0.1",
      "2001:DB8::/32",
      "10.0.0.1/32",
      "2001:db8:0::/32",
      "::ffff:10.0.0.1",
      "10.0.0.9/8",
      "10.0.0.0/8",
    ]);
    expect(r).toEqual({ canonical: ["10.0.0.1/32", "2001:db8::/32", "10.0.0.0/8"], problems: [] });
  });

  it("keeps blocks that only overlap (the service de-duplicates, it does not merge)", () => {
    expect(canonicalizeAllowList(["10.0.0.0/8", "10.0.0.1"]).canonical).toEqual(["10.0.0.0/8", "10.0.0.1/32"]);
  });

  it.each([
    ["0.0.0.0/0", "IPv4", "0.0.0.0/0"],
    ["::/0", "IPv6", "::/0"],
    ["0:0:0:0:0:0:0:0/0", "IPv6", "::/0"],
    ["::ffff:0.0.0.0/96", "IPv4", "0.0.0.0/0"],
    ["::ffff:0:0/96", "IPv4", "0.0.0.0/0"],
    ["1.2.3.4/0", "IPv4", "0.0.0.0/0"],
    ["0/0", "IPv4", "0.0.0.0/0"],
    ["2001:db8::/0", "IPv6", "::/0"],
    [" 0.0.0.0/0", "IPv4", "0.0.0.0/0"],
    ["0.0.0.0/0.0.0.0", "IPv4", "0.0.0.0/0"],
  ])("rejects the allow-all spelling %j, naming the entry, the family and the fix", (entry, family, canonical) => {
    const r = canonicalizeAllowList(["10.0.0.0/8", entry]);
    expect(r.canonical).toEqual(["10.0.0.0/8"]);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ kind: "allow-all", index: 1, entry, canonical });
    expect(r.problems[0].message).toContain(`'${entry}' allows every ${family} address`);
    expect(r.problems[0].message).toContain("list the CIDR blocks of your senders instead");
    if (entry !== canonical) expect(r.problems[0].reason).toContain(`(same as ${canonical})`);
  });

  it("reports every invalid entry with its index, and keeps the valid ones", () => {
    const r = canonicalizeAllowList(["nope", "10.0.0.1", "1.2.3.4/99", "", "010.0.0.1", "::/0"]);
    expect(r.problems.map((p) => [p.kind, p.index, p.entry])).toEqual([
      ["invalid", 0, "nope"],
      ["invalid", 2, "1.2.3.4/99"],
      ["invalid", 3, ""],
      ["invalid", 4, "010.0.0.1"],
      ["allow-all", 5, "::/0"],
    ]);
    expect(r.problems[1].message).toBe(
      "'1.2.3.4/99' has an invalid prefix length '/99' (a number 0–32, no leading zeros)",
    );
    expect(r.canonical).toEqual(["10.0.0.1/32"]);
  });

  it("accepts entries that only together cover a family, as the service does", () => {
    expect(canonicalizeAllowList(["0.0.0.0/1", "128.0.0.0/1"]).problems).toEqual([]);
  });

  const hosts = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}`);

  it(`allows ${MAX_ALLOW_LIST_ENTRIES} distinct entries and rejects ${MAX_ALLOW_LIST_ENTRIES + 1}`, () => {
    expect(MAX_ALLOW_LIST_ENTRIES).toBe(100);
    expect(canonicalizeAllowList(hosts(100)).problems).toEqual([]);
    const r = canonicalizeAllowList(hosts(101));
    expect(r.canonical).toHaveLength(101);
    expect(r.problems).toEqual([
      expect.objectContaining({ kind: "too-many", message: expect.stringMatching(/101 entries.*at most 100/) }),
    ]);
  });

  it("counts entries after de-duplication (150 spellings of 100 blocks pass)", () => {
    const list = [...hosts(100), ...hosts(50).map((h) => `${h}/32`)];
    expect(list).toHaveLength(150);
    expect(canonicalizeAllowList(list)).toEqual({ problems: [], canonical: hosts(100).map((h) => `${h}/32`) });
  });

  it("counts mapped and IPv4 spellings of one address once", () => {
    const list = [...hosts(100), ...hosts(100).map((h) => `::ffff:${h}`)];
    expect(canonicalizeAllowList(list).problems).toEqual([]);
  });

  it("counts distinct blocks reached only by clearing host bits once", () => {
    const list = Array.from({ length: 150 }, (_, i) => `10.${i % 100}.7.7/16`);
    expect(canonicalizeAllowList(list)).toMatchObject({ problems: [] });
    expect(canonicalizeAllowList(list).canonical).toHaveLength(100);
  });

  it("does not count invalid or allow-all entries towards the limit", () => {
    const r = canonicalizeAllowList([...hosts(100), "junk", "0.0.0.0/0"]);
    expect(r.problems.map((p) => p.kind)).toEqual(["invalid", "allow-all"]);
  });
});

describe("coversFamily", () => {
  it.each([
    [["0.0.0.0/1", "128.0.0.0/1"], 4, true],
    [["128.0.0.0/1", "0.0.0.0/2", "64.0.0.0/2"], 4, true],
    [["0.0.0.0/1", "128.0.0.0/2"], 4, false],
    [["0.0.0.0/1", "128.0.0.0/1"], 6, false],
    [["::/1", "8000::/1"], 6, true],
    [["::/1", "8000::/2"], 6, false],
    [[], 4, false],
  ] as const)("%j covers IPv%d: %s", (blocks, family, covers) => {
    expect(coversFamily(blocks, family)).toBe(covers);
  });
});
