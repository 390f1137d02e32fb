import { emptyPlacement, place } from "../../../fleet/placement";
import { selectShards } from "../../../fleet/selection";

const where = { tenantsFile: "t.yaml", placementFile: "t.placement.json" };
const names = Array.from({ length: 9 }, (_, i) => `t${i + 1}`);

describe("shard selection", () => {
  const change = place(emptyPlacement(2, "dynamic"), names, 2); // shards 1..5

  it("runs every shard by default", () => {
    expect(selectShards(change, { tenants: [] }, where)).toEqual([1, 2, 3, 4, 5]);
  });

  it("--runner I/N: runner I takes shards k with (k-1) mod N = I-1; the runners cover every shard once", () => {
    const runs = [1, 2, 3].map((index) => selectShards(change, { tenants: [], runner: { index, count: 3 } }, where));
    expect(runs).toEqual([[1, 4], [2, 5], [3]]);
    expect(runs.flat().sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("--tenant: only the shards of the named tenants, a removed tenant's former shard included", () => {
    expect(selectShards(change, { tenants: ["t3"] }, where)).toEqual([2]);
    const removed = place(
      change.placement,
      names.filter((n) => n !== "t9"),
      2,
    );
    expect(selectShards(removed, { tenants: ["t9", "t1"] }, where)).toEqual([1, 5]);
  });

  it("--tenant: a renamed tenant is found under its new name, in its former name's shard", () => {
    // t1 leaves (a free seat in shard 1, where a new tenant would go); t7 (shard 4) becomes t7-new.
    const renamed = place(
      change.placement,
      names.filter((n) => n !== "t1").map((n) => (n === "t7" ? "t7-new" : n)),
      2,
      new Map([["t7-new", ["t7"]]]),
    );
    expect(selectShards(renamed, { tenants: ["t7-new"] }, where)).toEqual([4]);
  });

  it("--tenant: a tenant named like a property of every object is looked up as a name", () => {
    expect(() => selectShards(change, { tenants: ["constructor"] }, where)).toThrow(/'constructor' is neither/);
  });

  it("--tenant and --runner together intersect", () => {
    expect(selectShards(change, { tenants: ["t3"], runner: { index: 1, count: 2 } }, where)).toEqual([]);
    expect(selectShards(change, { tenants: ["t3"], runner: { index: 2, count: 2 } }, where)).toEqual([2]);
  });

  it("--tenant with an unknown name names the flag and both files", () => {
    expect(() => selectShards(change, { tenants: ["nobody"] }, where)).toThrow(
      "--tenant: 'nobody' is neither in t.yaml nor in t.placement.json",
    );
  });
});
