// The tenants file placed on the shards, before a command runs: read, placed against the placement
// file and, for the commands that act on shards, against the shard stacks the state backend holds
// (their owners, the tenants they hold), with what changed said and, for up and place, written.
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalWorkspace } from "@pulumi/pulumi/automation";
import { isMap, isSeq, LineCounter, parseDocument } from "yaml";
import { loadTenantsFile } from "../sdk/nodejs/tenantsFile";
import type { FleetIo, PlacedFleet } from "./command";
import {
  type Census,
  type ShardStack,
  censusWorkspace,
  heldBy,
  moveShardTenants,
  newFleetId,
  readStacks,
  readTenants,
  tagStack,
} from "./census";
import { DEFAULT_FACE, DEFAULT_SHARD_SIZE, shardStackName } from "./defaults";
import { type FleetOptions, UsageError } from "./options";
import { checkFace, checkMoves, checkOwnership, frozenDifferences, originWithoutPlacement } from "./ownership";
import { emptyPlacement, place, type Placement, type PlacementChange, shardOf } from "./placement";
import { FLEET_ID, placementPathFor, readPlacement, writePlacement } from "./placementFile";
import { prepareWorkDir, workDirOf } from "./workDir";

/** In the work dir: the fleet's id, beside the shards' settings (fleet/census.ts). */
const FLEET_ID_FILE = "fleet-id";

/** Reads the tenants file and the placement, and places the tenants (nothing read from the backend). */
export function placeFleet(
  opts: FleetOptions,
  from?: { previous: Placement | undefined; held?: ReadonlyMap<string, number> },
): PlacedFleet {
  const tenantsFile = opts.tenantsFile;
  const placementFile = opts.placementFile ?? placementPathFor(tenantsFile);
  const entries = new Map(loadTenantsFile(tenantsFile).tenants.map((t) => [t.name, t]));
  const previous = from ? from.previous : readPlacement(placementFile);
  const shardSize = opts.shardSize ?? previous?.shardSize ?? DEFAULT_SHARD_SIZE;
  if (previous && opts.face && opts.face !== previous.face) {
    throw new UsageError(
      `--face: this fleet's resources are ${previous.face} (${placementFile}); switching to ${opts.face} would give ` +
        `every resource another type, which the engine replaces (new objects at the service)`,
    );
  }
  const formerNames = new Map([...entries.values()].map((t) => [t.name, t.formerNames ?? []]));
  const change = place(
    previous ?? emptyPlacement(shardSize, opts.face ?? DEFAULT_FACE),
    [...entries.keys()],
    shardSize,
    formerNames,
    from?.held,
  );
  return { tenantsFile, placementFile, entries, previous, shardSize, change };
}

/**
 * Places the tenants against what the state backend holds, before anything is written: the
 * project's shard stacks and their owners always; for `up`, `place`, `--frozen` and a lost
 * placement file also the tenants each of this fleet's stacks holds (one `pulumi stack export` per
 * shard). Refuses another fleet's stacks, a face the stacks do not have, and under --frozen any
 * difference; then (`up`, `place`) tags adopted stacks, moves tenants in the state, and writes the
 * placement.
 */
export async function placeAgainstStacks(opts: FleetOptions, io: FleetIo): Promise<PlacedFleet> {
  const placementFile = opts.placementFile ?? placementPathFor(opts.tenantsFile);
  const workDir = workDirOf(opts, opts.tenantsFile);
  prepareWorkDir(workDir, opts.project);
  const fileShows = readPlacement(placementFile);
  // Read now so a bad tenants file fails before the backend is asked anything.
  placeFleet(opts, { previous: fileShows });
  const recordedId = readRecordedFleetId(workDir);
  const adoptId = opts.adopt === "untagged" ? undefined : opts.adopt;
  const ws = await censusWorkspace(workDir, opts.secretsProvider);
  const census = await readStacks(ws, fileShows?.fleetId ?? adoptId ?? recordedId, io.out);
  const {
    previous,
    fleetId,
    adopt: adoptedByOrigin,
    rebuilt,
  } = await originOf(opts, ws, census, {
    fileShows,
    recordedId,
    placementFile,
  });
  const ours = [...census.stacks.values()].filter(
    (s) => s.owner === fleetId || (s.owner === undefined && (previous?.shards.includes(s.shard) ?? false)),
  );
  const deep = rebuilt || opts.frozen || opts.operation === "up" || opts.operation === "place";
  if (deep && !rebuilt)
    await readTenants(
      ws,
      census,
      ours.map((s) => s.shard),
      opts.parallel,
    );
  const heldAll = heldBy({ stacks: new Map(ours.map((s) => [s.shard, s])) });
  const { held, finishing } = oneShardEach(heldAll, previous);
  const fleet = placeFleet(opts, { previous, held: deep ? held : undefined });
  const { change } = fleet;
  change.placement.fleetId = fleetId;
  change.moves.push(...finishing);
  if (previous) checkFace(change.placement.face, ours, placementFile);
  checkMoves(change, heldAll);
  const adopt = [
    ...new Set([
      ...adoptedByOrigin,
      ...checkOwnership({ ...change.placement, fleetId }, previous?.shards ?? [], census.stacks).adopt,
    ]),
  ];
  for (const warning of renamesWithoutFormerNames(fleet, ours)) io.out(`warning: ${warning}`);
  reportPlacement(opts, fleet, io, {
    rebuilt: rebuilt ? ours.length : undefined,
    idChanged: fileShows?.fleetId !== fleetId,
  });
  await applyPlacement(opts, io, { ws, census, change, adopt, fleetId, workDir });
  return fleet;
}

/**
 * Where the fleet's placement comes from: the placement file when there is one; else the origin
 * the backend's stacks show (ownership.ts originWithoutPlacement), rebuilt from the tenants they
 * hold, with the stacks to adopt.
 */
async function originOf(
  opts: FleetOptions,
  ws: LocalWorkspace,
  census: Census,
  known: { fileShows: Placement | undefined; recordedId: string | undefined; placementFile: string },
): Promise<{ previous: Placement | undefined; fleetId: string; adopt: number[]; rebuilt: boolean }> {
  const { fileShows: previous, recordedId, placementFile } = known;
  if (previous) return { previous, fleetId: previous.fleetId ?? newFleetId(), adopt: [], rebuilt: false };
  const origin = originWithoutPlacement([...census.stacks.values()], {
    fleetId: recordedId,
    adopt: opts.adopt,
    newId: newFleetId(),
    project: opts.project,
    placementFile,
  });
  if (origin.kind !== "rebuild") return { previous, fleetId: origin.fleetId, adopt: [], rebuilt: false };
  await readTenants(ws, census, origin.shards, opts.parallel);
  const face = origin.shards.map((s) => census.stacks.get(s)?.face).find((f) => f !== undefined);
  return {
    previous: {
      ...emptyPlacement(opts.shardSize ?? DEFAULT_SHARD_SIZE, face ?? opts.face ?? DEFAULT_FACE, origin.fleetId),
      shards: origin.shards,
    },
    fleetId: origin.fleetId,
    adopt: origin.adopt,
    rebuilt: true,
  };
}

/**
 * A tenant in two stacks (a move cut short): kept where the placement puts it (else its first
 * stack), and a move that takes the other copy out.
 */
function oneShardEach(
  heldAll: ReadonlyMap<string, number[]>,
  previous: Placement | undefined,
): { held: Map<string, number>; finishing: PlacementChange["moves"] } {
  const held = new Map<string, number>();
  const finishing: PlacementChange["moves"] = [];
  for (const [tenant, shards] of heldAll) {
    const placed = previous ? shardOf(previous, tenant) : undefined;
    const keep = placed !== undefined && shards.includes(placed) ? placed : shards[0]!;
    held.set(tenant, keep);
    for (const other of shards) if (other !== keep) finishing.push({ tenant, from: other, to: keep });
  }
  return { held, finishing };
}

/**
 * `up` and `place` tag the adopted stacks, move tenants in the state and record the fleet's id;
 * another command moves nothing and runs each tenant where its stack holds it.
 */
async function applyPlacement(
  opts: FleetOptions,
  io: FleetIo,
  placed: {
    ws: LocalWorkspace;
    census: Census;
    change: PlacementChange;
    adopt: number[];
    fleetId: string;
    workDir: string;
  },
): Promise<void> {
  const { ws, census, change, adopt, fleetId, workDir } = placed;
  if (opts.operation === "up" || opts.operation === "place") {
    for (const shard of adopt) await tagStack(ws, shard, fleetId);
    if (change.moves.length > 0) {
      await moveShardTenants(
        ws,
        change.moves,
        { project: opts.project, fleetId, exists: (s) => census.stacks.has(s) },
        io.out,
      );
    }
    writeRecordedFleetId(workDir, fleetId);
  } else if (change.moves.length > 0) {
    // Nothing moves without up or place: this run sees each tenant where its stack holds it.
    io.out(`not moved by ${opts.operation} (run 'txmail-fleet place' to move them): run where their stacks hold them`);
    for (const m of change.moves) change.placement.tenants[m.tenant] = m.from;
  }
}

/**
 * A tenant removed from the file whose domain (as its stack holds it) a new tenant now has: most
 * likely a rename without `formerNames`, which would delete the old tenant's objects and make new
 * ones (new keys). Said with the line to add; the file stays valid (it may be a real hand-over).
 */
export function renamesWithoutFormerNames(fleet: PlacedFleet, stacks: readonly ShardStack[]): string[] {
  const removedDomain = new Map<string, { tenant: string; shard: number }>();
  for (const r of fleet.change.removed) {
    const domain = stacks.find((s) => s.shard === r.shard)?.domains?.get(r.tenant);
    if (domain) removedDomain.set(domain.toLowerCase(), r);
  }
  if (removedDomain.size === 0) return [];
  const lines = entryLines(fleet.tenantsFile);
  return fleet.change.added.flatMap(({ tenant }) => {
    const domain = fleet.entries.get(tenant)?.domain?.toLowerCase();
    const old = domain === undefined ? undefined : removedDomain.get(domain);
    if (!old) return [];
    return [
      `${fleet.tenantsFile}:${lines.get(tenant) ?? "?"}: new tenant '${tenant}' has the domain ${domain} of removed tenant ` +
        `'${old.tenant}' (${shardStackName(old.shard)}): as written, its up deletes '${old.tenant}''s objects and keys and ` +
        `makes new ones. If it is a rename, add to its entry: formerNames: [${old.tenant}]`,
    ];
  });
}

/** tenant name → `line:column` of its entry in the tenants file. */
function entryLines(file: string): Map<string, string> {
  const counter = new LineCounter();
  const doc = parseDocument(fs.readFileSync(file, "utf8"), { lineCounter: counter });
  const out = new Map<string, string>();
  const seq = doc.get("tenants", true);
  if (!isSeq(seq)) return out;
  for (const item of seq.items) {
    if (!isMap(item)) continue;
    const name = item.get("name");
    if (typeof name === "string" && item.range) {
      const pos = counter.linePos(item.range[0]);
      out.set(name, `${pos.line}:${pos.col}`);
    }
  }
  return out;
}

/** The fleet id recorded in the work dir, so a fleet whose placement file was renamed or lost finds its stacks. */
function readRecordedFleetId(workDir: string): string | undefined {
  try {
    const id = fs.readFileSync(path.join(workDir, FLEET_ID_FILE), "utf8").trim();
    return FLEET_ID.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

function writeRecordedFleetId(workDir: string, fleetId: string): void {
  if (readRecordedFleetId(workDir) !== fleetId) fs.writeFileSync(path.join(workDir, FLEET_ID_FILE), `${fleetId}\n`);
}

/** Says how the tenants are placed, refuses a change under --frozen, and saves it for `up` and `place`. */
function reportPlacement(
  opts: FleetOptions,
  fleet: PlacedFleet,
  io: FleetIo,
  stacks: { rebuilt?: number; idChanged: boolean },
): void {
  const { placementFile, previous, shardSize, change } = fleet;
  const first = previous === undefined && stacks.rebuilt === undefined;
  const idDrawn = previous !== undefined && stacks.rebuilt === undefined && stacks.idChanged;
  const placementChanged =
    !previous ||
    stacks.rebuilt !== undefined ||
    stacks.idChanged ||
    change.added.length > 0 ||
    change.removed.length > 0 ||
    change.renamed.length > 0 ||
    change.moves.length > 0 ||
    change.found.length > 0 ||
    shardSize !== previous.shardSize;
  if (opts.frozen && placementChanged) {
    const what = [describeChange(change, first, stacks.rebuilt, idDrawn), ...frozenDifferences(change)].join("; ");
    throw new UsageError(
      `--frozen: ${what}; nothing was run. Run 'txmail-fleet place' (it moves tenants in the state, keeping their ` +
        `objects) and commit ${placementFile}`,
    );
  }
  io.out(
    `placement: ${fleet.entries.size} tenants in ${change.placement.shards.length} shards of at most ${shardSize}, ${change.placement.face} face (${placementFile})` +
      (placementChanged ? `; ${describeChange(change, first, stacks.rebuilt, idDrawn)}` : ""),
  );
  // Only commands that act write the placement: a preview leaves the working tree as it found it.
  if ((opts.operation === "up" || opts.operation === "place") && placementChanged) {
    writePlacement(placementFile, change.placement);
  }
}

function describeChange(change: PlacementChange, first: boolean, rebuilt?: number, idDrawn?: boolean): string {
  const parts: string[] = [];
  if (idDrawn) parts.push(`this fleet's id ${change.placement.fleetId} recorded (its stacks are tagged with it)`);
  if (first) parts.push("no placement file yet");
  if (rebuilt !== undefined)
    parts.push(`no placement file: rebuilt from the ${rebuilt} shard stacks of fleet ${change.placement.fleetId}`);
  if (change.found.length) {
    parts.push(
      `kept where their stacks hold them: ${change.found.map((f) => `${f.tenant} in ${shardStackName(f.shard)}`).join(", ")}`,
    );
  }
  if (change.moves.length) {
    parts.push(
      `moved (in the state; their objects, ids and secrets stay): ${change.moves.map((m) => `${m.tenant} ${shardStackName(m.from)} → ${shardStackName(m.to)}`).join(", ")}`,
    );
  }
  if (change.added.length) {
    parts.push(`new: ${change.added.map((a) => `${a.tenant} → ${shardStackName(a.shard)}`).join(", ")}`);
  }
  if (change.renamed.length) {
    parts.push(
      `renamed (their objects stay): ${change.renamed.map((r) => `${r.from} → ${r.to} in ${shardStackName(r.shard)}`).join(", ")}`,
    );
  }
  if (change.removed.length) {
    parts.push(
      `removed (deleted by their shard's next up): ${change.removed.map((r) => `${r.tenant} from ${shardStackName(r.shard)}`).join(", ")}`,
    );
  }
  return parts.join("; ") || "shard size changed";
}
