// Sticky placement: the properties issue 19 asks for, on the pure function.
import { emptyPlacement, place, shardOf, tenantsOf, type Placement } from "../../../fleet/placement";

const names = (n: number, prefix = "t") => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
const shardsOf = (p: Placement) => Object.fromEntries(p.shards.map((s) => [s, tenantsOf(p, s)]));

describe("placement", () => {
  it("fills shards of the given size in file order: 9 tenants, size 4 → 3 shards (4, 4, 1)", () => {
    const { placement, added, removed } = place(emptyPlacement(4, "dynamic"), names(9), 4);
    expect(shardsOf(placement)).toEqual({
      1: ["t1", "t2", "t3", "t4"],
      2: ["t5", "t6", "t7", "t8"],
      3: ["t9"],
    });
    expect(added).toHaveLength(9);
    expect(removed).toEqual([]);
  });

  it("reordering the file moves nobody", () => {
    const first = place(emptyPlacement(4, "dynamic"), names(9), 4).placement;
    const shuffled = ["t7", "t2", "t9", "t1", "t5", "t8", "t3", "t6", "t4"];
    const again = place(first, shuffled, 4);
    expect(again.placement).toEqual(first);
    expect(again.added).toEqual([]);
    expect(again.removed).toEqual([]);
  });

  it("a new tenant goes to the lowest shard with room, and a full fleet opens a new shard", () => {
    const first = place(emptyPlacement(4, "dynamic"), names(9), 4).placement;
    const one = place(first, [...names(9), "new1"], 4);
    expect(one.added).toEqual([{ tenant: "new1", shard: 3 }]);
    const full = place(emptyPlacement(4, "dynamic"), names(8), 4).placement;
    const two = place(full, [...names(8), "new1"], 4);
    expect(two.added).toEqual([{ tenant: "new1", shard: 3 }]);
    expect(two.placement.shards).toEqual([1, 2, 3]);
  });

  it("removing a tenant frees its seat only: the others keep their shards, the emptied shard stays listed", () => {
    const first = place(emptyPlacement(4, "dynamic"), names(9), 4).placement;
    const without = place(
      first,
      names(9).filter((n) => n !== "t6" && n !== "t9"),
      4,
    );
    expect(without.removed).toEqual([
      { tenant: "t6", shard: 2 },
      { tenant: "t9", shard: 3 },
    ]);
    for (const [t, s] of Object.entries(without.placement.tenants)) expect(s).toBe(first.tenants[t]);
    // Shard 3 has no tenant left but its stack still holds t9's objects: it must still be run.
    expect(without.placement.shards).toEqual([1, 2, 3]);
    // The freed seat in shard 2 is the first one a newcomer gets.
    const refill = place(without.placement, [...names(9).filter((n) => n !== "t6" && n !== "t9"), "x"], 4);
    expect(refill.added).toEqual([{ tenant: "x", shard: 2 }]);
  });

  it("a smaller shard size applies to new tenants only: nobody already placed moves", () => {
    const first = place(emptyPlacement(4, "dynamic"), names(8), 4).placement;
    const smaller = place(first, [...names(8), "x", "y"], 2);
    for (const t of names(8)) expect(smaller.placement.tenants[t]).toBe(first.tenants[t]);
    expect(smaller.added).toEqual([
      { tenant: "x", shard: 3 },
      { tenant: "y", shard: 3 },
    ]);
    expect(smaller.placement.shardSize).toBe(2);
  });

  it("gives the same placement from the same inputs (CI runners agree without talking)", () => {
    const a = place(emptyPlacement(3, "dynamic"), names(7), 3);
    const b = place(emptyPlacement(3, "dynamic"), names(7), 3);
    expect(a).toEqual(b);
    expect(Object.keys(a.placement.tenants)).toEqual([...names(7)].sort());
  });

  it("refuses a shard size that is not a positive integer", () => {
    expect(() => place(emptyPlacement(1, "dynamic"), ["a"], 0)).toThrow(/shard size must be a positive integer/);
  });

  it("a renamed tenant (its old name among its formerNames) keeps the old name's shard: nothing added or removed", () => {
    const first = place(emptyPlacement(4, "dynamic"), names(9), 4).placement;
    const renamedFile = names(9).map((n) => (n === "t6" ? "t6-new" : n));
    const renamed = place(first, [...renamedFile, "x"], 4, new Map([["t6-new", ["t6"]]]));
    expect(renamed.renamed).toEqual([{ from: "t6", to: "t6-new", shard: 2 }]);
    expect(renamed.removed).toEqual([]);
    // The newcomer gets shard 3's free seat, not a seat t6 freed: t6-new holds it.
    expect(renamed.added).toEqual([{ tenant: "x", shard: 3 }]);
    expect(renamed.placement.tenants["t6-new"]).toBe(2);
    expect(renamed.placement.tenants).not.toHaveProperty("t6");
    // Later runs: the tenant is placed under its new name; the former names change nothing.
    const again = place(renamed.placement, [...renamedFile, "x"], 4, new Map([["t6-new", ["t6"]]]));
    expect(again.placement).toEqual(renamed.placement);
    expect([again.added, again.removed, again.renamed]).toEqual([[], [], []]);
  });

  it("a former name that is still in the file, or was never placed, makes no rename", () => {
    const first = place(emptyPlacement(4, "dynamic"), names(2), 4).placement;
    const both = place(first, [...names(2), "t1-new"], 4, new Map([["t1-new", ["t1"]]]));
    expect(both.renamed).toEqual([]);
    expect(both.added).toEqual([{ tenant: "t1-new", shard: 1 }]);
    const unknown = place(first, [...names(2), "y"], 4, new Map([["y", ["never-placed"]]]));
    expect(unknown.renamed).toEqual([]);
    expect(unknown.added).toEqual([{ tenant: "y", shard: 1 }]);
  });

  it("places tenants named like the properties of every plain object (constructor, tostring)", () => {
    const first = place(emptyPlacement(1, "dynamic"), ["constructor", "tostring", "valueof"], 1);
    expect(first.added).toEqual([
      { tenant: "constructor", shard: 1 },
      { tenant: "tostring", shard: 2 },
      { tenant: "valueof", shard: 3 },
    ]);
    expect(shardOf(first.placement, "constructor")).toBe(1);
    expect(shardOf(first.placement, "hasOwnProperty")).toBeUndefined();
    const again = place(first.placement, ["valueof", "constructor", "tostring"], 1);
    expect([again.added, again.removed]).toEqual([[], []]);
  });

  describe("against what the stacks hold (held)", () => {
    const first = () => place(emptyPlacement(4, "native", "fleet-0001"), names(9), 4).placement;
    const heldFrom = (p: Placement) => new Map(Object.entries(p.tenants));

    it("a lost placement file is rebuilt from the stacks: everyone stays, even with another order and size", () => {
      const held = heldFrom(first());
      const rebuilt = place(
        { ...emptyPlacement(3, "native", "fleet-0001"), shards: [1, 2, 3] },
        [...names(9)].reverse(),
        3,
        new Map(),
        held,
      );
      expect(rebuilt.placement.tenants).toEqual(first().tenants);
      expect(rebuilt.found).toHaveLength(9);
      expect([rebuilt.added, rebuilt.removed, rebuilt.moves]).toEqual([[], [], []]);
      expect(rebuilt.placement.fleetId).toBe("fleet-0001");
    });

    it("a hand-edited placement asks for a move (never a re-make); the stacks win where the file is silent", () => {
      const edited = { ...first(), tenants: { ...first().tenants, t1: 3 } };
      const change = place(edited, names(9), 4, new Map(), heldFrom(first()));
      expect(change.moves).toEqual([{ tenant: "t1", from: 1, to: 3 }]);
      expect(change.placement.tenants.t1).toBe(3);
      expect([change.added, change.removed]).toEqual([[], []]);
    });

    it("a tenant removed and put back before an up keeps its seat, even if a newcomer took the freed one", () => {
      const p = first();
      const held = heldFrom(p); // no up ran: the stacks still hold t6
      const removed = place(p, [...names(9).filter((n) => n !== "t6"), "x"], 4, new Map(), held);
      expect(removed.removed).toEqual([{ tenant: "t6", shard: 2 }]);
      expect(removed.added).toEqual([{ tenant: "x", shard: 2 }]);
      // Its objects are still in shard 2: it stays there (one over the size), never given another seat.
      const back = place(removed.placement, [...names(9), "x"], 4, new Map(), held);
      expect(back.placement.tenants.t6).toBe(2);
      expect([back.added, back.moves]).toEqual([[], []]);
      expect(back.found).toEqual([{ tenant: "t6", shard: 2 }]);
      // Without reading the stacks (the old way) it would have been placed anew, in shard 3.
      expect(place(removed.placement, [...names(9), "x"], 4).added).toEqual([{ tenant: "t6", shard: 3 }]);
    });

    it("a rename finds its former name in the stacks when the placement file lost it", () => {
      const held = heldFrom(first());
      const renamed = place(
        { ...emptyPlacement(4, "native"), shards: [1, 2, 3] },
        names(9).map((n) => (n === "t6" ? "t6-new" : n)),
        4,
        new Map([["t6-new", ["t6"]]]),
        held,
      );
      expect(renamed.renamed).toEqual([{ from: "t6", to: "t6-new", shard: 2 }]);
      expect(renamed.added).toEqual([]);
    });
  });
});
