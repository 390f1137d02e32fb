// The checks a fleet makes against the state backend before any shard runs (pure: the census is
// read by fleet/census.ts). Each refusal names the stacks or tenants and the command to run.
import type { Face } from "../sdk/nodejs/internal/face";
import { UsageError } from "./options";
import type { ShardStack } from "./census";
import { shardStackName } from "./defaults";
import type { Placement, PlacementChange } from "./placement";

export class FleetStateError extends UsageError {}

/** Where the placement comes from when its file is missing. */
export type Origin =
  { kind: "new"; fleetId: string } | { kind: "rebuild"; fleetId: string; shards: number[]; adopt: number[] };

/**
 * No placement file. A fleet id known from the work dir or `--adopt` whose stacks exist: rebuilt
 * from them. No id, or none of its stacks: a new fleet, unless shard stacks of the project exist —
 * they are another fleet's, or this one's with its placement file lost; the fleet cannot tell which,
 * so it refuses and says both ways on.
 */
export function originWithoutPlacement(
  stacks: readonly ShardStack[],
  known: { fleetId?: string; adopt?: string; newId: string; project: string; placementFile: string },
): Origin {
  const adopting = known.adopt === "untagged" ? undefined : (known.adopt ?? known.fleetId);
  const ours = stacks.filter((s) =>
    known.adopt === "untagged" ? s.owner === undefined : adopting !== undefined && s.owner === adopting,
  );
  if (ours.length > 0) {
    const fleetId = adopting ?? known.newId;
    return {
      kind: "rebuild",
      fleetId,
      shards: ours.map((s) => s.shard),
      adopt: ours.filter((s) => s.owner === undefined).map((s) => s.shard),
    };
  }
  if (stacks.length === 0) return { kind: "new", fleetId: known.adopt ?? known.fleetId ?? known.newId };
  const owners = new Map<string, string[]>();
  for (const s of stacks) owners.set(s.owner ?? "untagged", [...(owners.get(s.owner ?? "untagged") ?? []), s.name]);
  const list = [...owners].map(([o, names]) => `${names.join(", ")} (fleet ${o})`).join("; ");
  throw new FleetStateError(
    `no placement file (${known.placementFile}), but the backend holds shard stacks of project '${known.project}': ${list}. ` +
      `Nothing was run. If they are this fleet's (its placement file was renamed or lost), rebuild the placement from ` +
      `them — each tenant stays where its stack holds it: 'txmail-fleet place --adopt ${[...owners.keys()][0]!}'. ` +
      `If they are another fleet's, give this fleet its own project: '--project <name>'`,
  );
}

/**
 * Every shard the placement uses that exists must be this fleet's: tagged with its id, or
 * untagged and already listed by its placement file (made before fleets had ids, or by a first run
 * that died before tagging) — those are tagged now (`adopt`).
 */
export function checkOwnership(
  placement: Placement & { fleetId: string },
  previousShards: readonly number[],
  stacks: ReadonlyMap<number, ShardStack>,
): { adopt: number[] } {
  const adopt: number[] = [];
  const foreign: string[] = [];
  for (const shard of placement.shards) {
    const s = stacks.get(shard);
    if (!s || s.owner === placement.fleetId) continue;
    if (s.owner === undefined && previousShards.includes(shard)) adopt.push(shard);
    else foreign.push(`${s.name} (fleet ${s.owner ?? "untagged"})`);
  }
  if (foreign.length > 0) {
    throw new FleetStateError(
      `this fleet (${placement.fleetId}) would run shard stacks that another fleet made: ${foreign.join(", ")}. ` +
        `Nothing was run. Two fleets on one backend need their own projects: run this one with '--project <name>' ` +
        `(a new fleet) — or, if those stacks are this fleet's, 'txmail-fleet place --adopt <their fleet id>' ` +
        `after removing this placement file`,
    );
  }
  return { adopt };
}

/** The stacks' face must be the placement's: the other would replace every resource. */
export function checkFace(face: Face, stacks: Iterable<ShardStack>, placementFile: string): void {
  const other = [...stacks].filter((s) => s.face !== undefined && s.face !== face);
  if (other.length === 0) return;
  throw new FleetStateError(
    `${placementFile} says face '${face}', but ${other.map((s) => `${s.name} holds ${s.face} resources`).join(", ")}: ` +
      `running it would replace every resource (new objects, keys and secrets). Nothing was run. ` +
      `Set "face": "${other[0]!.face}" back in ${placementFile}`,
  );
}

/**
 * A move must not put a shard over the fleet's size (a shard already fuller keeps its tenants), and
 * a tenant found in two stacks (a move interrupted between its imports) must be placed in one of them.
 */
export function checkMoves(change: PlacementChange, held: ReadonlyMap<string, number[]>): void {
  const { placement, moves } = change;
  const count = (shard: number) => Object.values(placement.tenants).filter((s) => s === shard).length;
  const over = [...new Set(moves.map((m) => m.to))].filter((s) => count(s) > placement.shardSize);
  if (over.length > 0) {
    throw new FleetStateError(
      `moving ${moves.map((m) => `${m.tenant} (${shardStackName(m.from)} → ${shardStackName(m.to)})`).join(", ")} ` +
        `would put ${over.map((s) => `${shardStackName(s)} at ${count(s)} tenants`).join(", ")}, over the shard ` +
        `size ${placement.shardSize}. Nothing was run. Put them in a shard with room, or raise the size ('--shard-size N')`,
    );
  }
  const twice = [...held].filter(([, shards]) => shards.length > 1);
  const unresolved = twice.filter(([t, shards]) => !shards.includes(placement.tenants[t] ?? -1));
  if (unresolved.length > 0) {
    throw new FleetStateError(
      `tenants held by two shard stacks (a move was interrupted): ` +
        `${unresolved.map(([t, s]) => `${t} in ${s.map(shardStackName).join(" and ")}`).join(", ")}. Nothing was run. ` +
        `Put each in one of them in the placement file, then 'txmail-fleet place' finishes the move`,
    );
  }
}

/** Under --frozen: what the stacks say against the committed placement, as a refusal. */
export function frozenDifferences(change: PlacementChange): string[] {
  const parts: string[] = [];
  if (change.moves.length > 0) {
    parts.push(
      `would move ${change.moves.map((m) => `${m.tenant} from ${shardStackName(m.from)} to ${shardStackName(m.to)}`).join(", ")} ` +
        `(the placement file disagrees with the stacks)`,
    );
  }
  if (change.found.length > 0) {
    parts.push(
      `the stacks hold tenants the placement file lacks: ${change.found.map((f) => `${f.tenant} in ${shardStackName(f.shard)}`).join(", ")}`,
    );
  }
  return parts;
}
