// Written from the service's rules (seed, "IP allow lists") and the choices documented in cidr.ts.
import {
  canonicalizeAllowList,
  canonicalizeEntry,
  coversFamily,
  isAllowAll,
  MAX_ALLOW_LIST_ENTRIES,
} from "../../../provider/core/cidr";

describe("canonicalizeEntry", () => {
  it.each([
    ["10.0.0.1", "10.0.0.1/32"],
    ["10.0.0.1/32", "10.0.0.1/32"],
    ["10.1.2.3/8", "10.0.0.0/8"], // host bits cleared
    ["192.168.1.77/24", "192.168.1.0/24"],
    ["2001:DB8::1", "2001:db8::1/128"], // lower case
    ["2001:0db8:0000:0000:0000:0000:0000:0001/128", "2001:db8::1/128"], // RFC 5952 compression
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1/128"], // first longest zero run compressed
    ["2001:db8::/32", "2001:db8::/32"],
    ["2001:db8:ffff::/32", "2001:db8::/32"],
    ["::ffff:10.0.0.1", "10.0.0.1/32"], // IPv4-mapped → IPv4
    ["::ffff:10.0.0.0/104", "10.0.0.0/8"],
    ["0.0.0.0/0", "0.0.0.0/0"],
    ["::/0", "::/0"],
    ["2001:db8::/0", "::/0"],
    ["::ffff:0:0/96", "0.0.0.0/0"],
    ["0:0:0:0:0:0:0:0/0", "::/0"],
  ])("%s → %s", (entry, canonical) => {
    expect(canonicalizeEntry(entry)).toMatchObject({ ok: true, canonical });
  });

  it.each([
    ["", /empty/],
    [" 10.0.0.1", /whitespace/],
    ["10.0.0.1 ", /whitespace/],
    ["010.0.0.1", /ambiguous/],
    ["10.1", /ambiguous/],
    ["0x0a.0.0.1", /ambiguous/],
    ["0/0", /ambiguous/],
    ["10.0.0.256", /not an IP/],
    ["10.0.0.1/33", /prefix length/],
    ["10.0.0.1/-1", /prefix length/],
    ["10.0.0.1/08", /prefix length/],
    ["2001:db8::/129", /prefix length/],
    ["fe80::1%eth0", /zone id/],
    ["example.com", /not an IP/],
    ["10.0.0.0/8/8", /prefix length/],
  ])("rejects %j", (entry, why) => {
    const r = canonicalizeEntry(entry);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(why);
  });
});

describe("canonicalizeAllowList", () => {
  it("de-duplicates spellings of the same block, keeping first-seen order", () => {
    const r = canonicalizeAllowList(["10.0.0.1", "2001:DB8::/32", "10.0.0.1/32", "2001:db8:0::/32"]);
    expect(r).toEqual({ canonical: ["10.0.0.1/32", "2001:db8::/32"], problems: [] });
  });

  it.each(["0.0.0.0/0", "::/0", "0:0:0:0:0:0:0:0/0", "::ffff:0.0.0.0/96", "1.2.3.4/0", "2001:db8::/0"])(
    "rejects the allow-all spelling %s, naming the entry",
    (entry) => {
      const r = canonicalizeAllowList(["10.0.0.0/8", entry]);
      expect(r.problems).toHaveLength(1);
      expect(r.problems[0]).toMatchObject({ kind: "allow-all", index: 1, entry });
      expect(r.problems[0].message).toContain(`'${entry}' allows every`);
    },
  );

  it("rejects entries that together cover a whole family", () => {
    expect(canonicalizeAllowList(["0.0.0.0/1", "128.0.0.0/1"]).problems[0].kind).toBe("allow-all");
    expect(canonicalizeAllowList(["::/1", "8000::/1"]).problems[0].message).toMatch(/every IPv6 address/);
    expect(canonicalizeAllowList(["0.0.0.0/1", "128.0.0.0/2"]).problems).toEqual([]);
  });

  it("reports every invalid entry with its index", () => {
    const r = canonicalizeAllowList(["nope", "10.0.0.1", "1.2.3.4/99"]);
    expect(r.problems.map((p) => [p.kind, p.index])).toEqual([
      ["invalid", 0],
      ["invalid", 2],
    ]);
    expect(r.canonical).toEqual(["10.0.0.1/32"]);
  });

  const hosts = (n: number) => Array.from({ length: n }, (_, i) => `10.0.${i >> 8}.${i & 255}`);

  it(`allows ${MAX_ALLOW_LIST_ENTRIES} distinct entries and rejects ${MAX_ALLOW_LIST_ENTRIES + 1}`, () => {
    expect(canonicalizeAllowList(hosts(100)).problems).toEqual([]);
    const r = canonicalizeAllowList(hosts(101));
    expect(r.problems).toEqual([
      expect.objectContaining({ kind: "too-many", message: expect.stringMatching(/101 entries.*at most 100/) }),
    ]);
  });

  it("counts entries after de-duplication (150 spellings of 100 blocks pass)", () => {
    const list = [...hosts(100), ...hosts(50).map((h) => `${h}/32`)];
    expect(list).toHaveLength(150);
    expect(canonicalizeAllowList(list)).toMatchObject({ problems: [], canonical: hosts(100).map((h) => `${h}/32`) });
  });

  it("treats an empty list as no restriction", () => {
    expect(canonicalizeAllowList([])).toEqual({ canonical: [], problems: [] });
  });
});

describe("helpers", () => {
  it("isAllowAll recognises only the canonical whole-space blocks", () => {
    expect(isAllowAll("0.0.0.0/0")).toBe(true);
    expect(isAllowAll("::/0")).toBe(true);
    expect(isAllowAll("0.0.0.0/1")).toBe(false);
  });
  it("coversFamily ignores the other family", () => {
    expect(coversFamily(["0.0.0.0/1", "128.0.0.0/1"], 6)).toBe(false);
  });
});
