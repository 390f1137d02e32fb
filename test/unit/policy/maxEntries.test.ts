// ip-allow-list-max-entries: > 100 after canonicalisation and de-duplication, unknowns left out.
import { validateAllowListSize } from "../../../policy/rules/allowListSize";
import { key, run, UNKNOWN } from "./harness";

const hosts = (n: number, spell = (i: number) => `10.0.${i >> 8}.${i & 255}`) =>
  Array.from({ length: n }, (_, i) => spell(i));

describe("ip-allow-list-max-entries", () => {
  it("accepts 100 distinct entries", async () => {
    expect(await run(validateAllowListSize, key(hosts(100)))).toEqual([]);
  });

  it("rejects 101 distinct entries, naming the resource, the count and the fix", async () => {
    const [m, ...rest] = await run(validateAllowListSize, key(hosts(101), { name: "office" }));
    expect(rest).toEqual([]);
    expect(m).toContain("ApiKey 'office': ipAllowList:");
    expect(m).toContain("has 101 entries");
    expect(m).toMatch(/merge adjacent blocks/);
  });

  it("counts after canonicalisation: the same block spelt differently counts once", async () => {
    const list = [...hosts(100), "10.0.0.0/32", "10.0.0.1/32", "::ffff:10.0.0.2", "10.0.0.3"];
    expect(await run(validateAllowListSize, key(list))).toEqual([]);
  });

  it("does not count unknown entries (they may be duplicates)", async () => {
    expect(await run(validateAllowListSize, key([...hosts(100), UNKNOWN, UNKNOWN]))).toEqual([]);
  });

  it("still reports more than 100 known distinct entries next to unknown ones", async () => {
    expect(await run(validateAllowListSize, key([UNKNOWN, ...hosts(101)]))).toHaveLength(1);
  });

  it("applies to sub-account keys", async () => {
    const call = { kind: "SubAccountApiKey", name: "t", props: { ipAllowList: hosts(150) } };
    expect(await run(validateAllowListSize, call)).toEqual([expect.stringContaining("has 150 entries")]);
  });
});
