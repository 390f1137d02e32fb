import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { placementPathFor, readPlacement, writePlacement } from "../../../fleet/placementFile";

describe("placement file", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-placement-"))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("lives beside the tenants file", () => {
    expect(placementPathFor("/p/tenants.yaml")).toBe("/p/tenants.placement.json");
    expect(placementPathFor("/p/prod.yml")).toBe("/p/prod.placement.json");
  });

  it("round-trips, and is absent before the first write", () => {
    const file = path.join(dir, "tenants.placement.json");
    expect(readPlacement(file)).toBeUndefined();
    const p = {
      face: "native" as const,
      shardSize: 4,
      shards: [1, 2],
      tenants: { a: 1, b: 2 },
      fleetId: "0f1e2d3c4b5a6978",
    };
    writePlacement(file, p);
    expect(readPlacement(file)).toEqual(p);
    expect(JSON.parse(fs.readFileSync(file, "utf8")).version).toBe(1);
  });

  it("without a face (written before faces were recorded) is a dynamic fleet's", () => {
    const file = path.join(dir, "tenants.placement.json");
    fs.writeFileSync(file, JSON.stringify({ version: 1, shardSize: 4, shards: [1], tenants: { a: 1 } }));
    expect(readPlacement(file)).toEqual({ face: "dynamic", shardSize: 4, shards: [1], tenants: { a: 1 } });
  });

  it("is replaced atomically: no temporary file is left and an old reader never sees half a file", () => {
    const file = path.join(dir, "tenants.placement.json");
    writePlacement(file, { face: "dynamic", shardSize: 4, shards: [1], tenants: { a: 1 } });
    const before = fs.statSync(file).ino;
    writePlacement(file, { face: "dynamic", shardSize: 4, shards: [1], tenants: { a: 1, b: 1 } });
    // A rename gives the path a new inode; an in-place write would keep the old one.
    expect(fs.statSync(file).ino).not.toBe(before);
    expect(fs.readdirSync(dir)).toEqual(["tenants.placement.json"]);
  });

  it.each([
    ["not JSON", "{", /not JSON/],
    ["a wrong version", JSON.stringify({ version: 2, shardSize: 1, shards: [], tenants: {} }), /version: must be 1/],
    [
      "an unknown face",
      JSON.stringify({ version: 1, face: "yaml", shardSize: 1, shards: [], tenants: {} }),
      /face: must be "dynamic" or "native"/,
    ],
    [
      "a bad shard size",
      JSON.stringify({ version: 1, shardSize: 0, shards: [], tenants: {} }),
      /shardSize: must be a positive integer/,
    ],
    [
      "a repeated shard",
      JSON.stringify({ version: 1, shardSize: 1, shards: [1, 1], tenants: {} }),
      /shards: must not repeat/,
    ],
    [
      "a tenant in no listed shard",
      JSON.stringify({ version: 1, shardSize: 1, shards: [1], tenants: { a: 2 } }),
      /tenants\.a: shard 2 is not listed/,
    ],
    [
      "a fleet id that is not one",
      JSON.stringify({ version: 1, shardSize: 1, shards: [], tenants: {}, fleetId: "a b" }),
      /fleetId: must be 8 to 64 letters/,
    ],
    [
      "a tenant with a bad shard",
      JSON.stringify({ version: 1, shardSize: 1, shards: [1], tenants: { a: "x" } }),
      /tenants\.a: must be a positive integer/,
    ],
  ])("rejects %s, naming the field and the rule", (_what, text, message) => {
    const file = path.join(dir, "p.json");
    fs.writeFileSync(file, text);
    expect(() => readPlacement(file)).toThrow(message);
  });
});
