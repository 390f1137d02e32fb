// The checks against the backend before any shard runs (fleet/ownership.ts): another fleet's stacks,
// a lost placement file, a face the stacks lack, a move over the shard size.
import type { ShardStack } from "../../../fleet/census";
import {
  checkFace,
  checkMoves,
  checkOwnership,
  FleetStateError,
  frozenDifferences,
  originWithoutPlacement,
} from "../../../fleet/ownership";
import { emptyPlacement, place } from "../../../fleet/placement";

const stack = (shard: number, owner?: string, extra: Partial<ShardStack> = {}): ShardStack => ({
  shard,
  name: `shard-00${shard}`,
  ...(owner && { owner }),
  ...extra,
});
const known = { newId: "new-fleet-id", project: "txmail-fleet", placementFile: "/p/tenants.placement.json" };

describe("fleet ownership", () => {
  it("no placement file, no stacks: a new fleet with a new id", () => {
    expect(originWithoutPlacement([], known)).toEqual({ kind: "new", fleetId: "new-fleet-id" });
  });

  it("no placement file, the work dir's fleet id has stacks: rebuilt from them", () => {
    const o = originWithoutPlacement([stack(1, "fleet-aaaa"), stack(2, "fleet-aaaa")], {
      ...known,
      fleetId: "fleet-aaaa",
    });
    expect(o).toEqual({ kind: "rebuild", fleetId: "fleet-aaaa", shards: [1, 2], adopt: [] });
  });

  it("no placement file and another fleet's stacks (a second fleet on the backend): refused, naming both ways on", () => {
    expect(() => originWithoutPlacement([stack(1, "fleet-aaaa"), stack(2)], known)).toThrow(FleetStateError);
    expect(() => originWithoutPlacement([stack(1, "fleet-aaaa"), stack(2)], known)).toThrow(
      /shard-001 \(fleet fleet-aaaa\); shard-002 \(fleet untagged\)\. Nothing was run\..*txmail-fleet place --adopt fleet-aaaa.*--project <name>/,
    );
  });

  it("--adopt untagged rebuilds from stacks made before fleets had ids, and tags them", () => {
    const o = originWithoutPlacement([stack(1), stack(2, "fleet-bbbb")], { ...known, adopt: "untagged" });
    expect(o).toEqual({ kind: "rebuild", fleetId: "new-fleet-id", shards: [1], adopt: [1] });
  });

  it("a placement using another fleet's stack is refused; its own untagged ones are adopted", () => {
    const p = { ...emptyPlacement(4, "native"), shards: [1, 2, 3], fleetId: "fleet-aaaa" };
    const stacks = new Map([
      [1, stack(1, "fleet-aaaa")],
      [2, stack(2)],
    ]);
    expect(checkOwnership(p, [1, 2], stacks)).toEqual({ adopt: [2] });
    stacks.set(3, stack(3, "fleet-bbbb"));
    expect(() => checkOwnership(p, [1, 2], stacks)).toThrow(
      /another fleet made: shard-003 \(fleet fleet-bbbb\)\. Nothing was run/,
    );
    // An untagged stack the placement never listed is not this fleet's to take.
    expect(() => checkOwnership({ ...p, shards: [1, 4] }, [1], new Map([[4, stack(4)]]))).toThrow(
      /shard-004 \(fleet untagged\)/,
    );
  });

  it("a face the stacks do not hold is refused (the switch would replace every resource)", () => {
    expect(() => checkFace("dynamic", [stack(1, "f", { face: "native" })], "/p/x.json")).toThrow(
      /says face 'dynamic', but shard-001 holds native resources.*Set "face": "native" back/,
    );
    expect(() => checkFace("native", [stack(1, "f", { face: "native" }), stack(2, "f")], "/p/x.json")).not.toThrow();
  });

  it("a move over the shard size is refused; --frozen names every move", () => {
    const p = place(emptyPlacement(2, "native"), ["a", "b", "c"], 2).placement; // a, b → 1; c → 2
    const held = new Map(Object.entries(p.tenants));
    const edited = place({ ...p, tenants: { ...p.tenants, a: 2 } }, ["a", "b", "c"], 2, new Map(), held);
    expect(() => checkMoves(edited, new Map())).not.toThrow();
    expect(frozenDifferences(edited)).toEqual([
      "would move a from shard-001 to shard-002 (the placement file disagrees with the stacks)",
    ]);
    const over = place({ ...p, tenants: { ...p.tenants, a: 2, b: 2 } }, ["a", "b", "c"], 2, new Map(), held);
    expect(() => checkMoves(over, new Map())).toThrow(/would put shard-002 at 3 tenants, over the shard size 2/);
  });

  it("a tenant in two stacks (a move cut short) must be placed in one of them", () => {
    const p = place(emptyPlacement(4, "native"), ["a"], 4);
    expect(() => checkMoves(p, new Map([["a", [1, 2]]]))).not.toThrow();
    const elsewhere = { ...p, placement: { ...p.placement, tenants: { a: 3 } } };
    expect(() => checkMoves(elsewhere, new Map([["a", [1, 2]]]))).toThrow(/a in shard-001 and shard-002/);
  });
});
