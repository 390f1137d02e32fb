// The placement file beside the tenants file (`tenants.yaml` → `tenants.placement.json`): read with
// every field checked, written atomically (a temporary file renamed over the old one), so a run killed
// mid-write leaves the previous placement, never half of one. Commit it with the tenants file: it is
// what keeps every tenant in its shard on every machine and CI runner.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Face } from "../sdk/nodejs/internal/face";
import type { Placement } from "./placement";

export const PLACEMENT_VERSION = 1;

/** A fleet id: what `txmail-fleet` draws (newFleetId) or a user may give with `--adopt`. */
export const FLEET_ID = /^[A-Za-z0-9_-]{8,64}$/;

export class PlacementFileError extends Error {
  override readonly name = "PlacementFileError";
}

/** `dir/tenants.yaml` → `dir/tenants.placement.json`. */
export function placementPathFor(tenantsFile: string): string {
  const ext = path.extname(tenantsFile);
  return path.join(path.dirname(tenantsFile), `${path.basename(tenantsFile, ext)}.placement.json`);
}

/** The placement stored at `file`, or undefined when there is none yet. */
export function readPlacement(file: string): Placement | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new PlacementFileError(`${file}: not JSON (${(e as Error).message})`);
  }
  return validate(raw, file);
}

export function writePlacement(file: string, placement: Placement): void {
  const text = `${JSON.stringify({ version: PLACEMENT_VERSION, ...placement }, null, 2)}\n`;
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function validate(raw: unknown, file: string): Placement {
  const fail = (field: string, rule: string): never => {
    throw new PlacementFileError(`${file}: ${field}: ${rule}`);
  };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail("(root)", "must be an object");
  const o = raw as Record<string, unknown>;
  if (o.version !== PLACEMENT_VERSION) fail("version", `must be ${PLACEMENT_VERSION}`);
  const isShard = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 1;
  if (!isShard(o.shardSize)) fail("shardSize", "must be a positive integer");
  if (!Array.isArray(o.shards)) fail("shards", "must be a list of shard numbers");
  const shards = o.shards as unknown[];
  shards.forEach((s, i) => isShard(s) || fail(`shards[${i}]`, "must be a positive integer"));
  if (new Set(shards).size !== shards.length) fail("shards", "must not repeat a shard");
  if (typeof o.tenants !== "object" || o.tenants === null || Array.isArray(o.tenants))
    fail("tenants", "must map tenant names to shard numbers");
  const tenants = o.tenants as Record<string, unknown>;
  for (const [name, shard] of Object.entries(tenants)) {
    if (!isShard(shard)) fail(`tenants.${name}`, "must be a positive integer (a shard number)");
    if (!shards.includes(shard)) fail(`tenants.${name}`, `shard ${String(shard)} is not listed in shards`);
  }
  // Placement files written before the face was recorded belong to dynamic fleets (the only kind then).
  if (o.face !== undefined && o.face !== "dynamic" && o.face !== "native")
    fail("face", `must be "dynamic" or "native"`);
  if (o.fleetId !== undefined && (typeof o.fleetId !== "string" || !FLEET_ID.test(o.fleetId)))
    fail("fleetId", "must be 8 to 64 letters, digits, '-' or '_' (the id txmail-fleet drew for this fleet)");
  return {
    face: (o.face as Face | undefined) ?? "dynamic",
    shardSize: o.shardSize as number,
    shards: (shards as number[]).slice().sort((a, b) => a - b),
    tenants: tenants as Record<string, number>,
    ...(typeof o.fleetId === "string" && { fleetId: o.fleetId }),
  };
}
