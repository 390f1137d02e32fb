// What the state backend holds for the fleet's project, read before any shard runs: which shard
// stacks exist, which fleet owns each (the `txmail-fleet:id` stack tag, set when the fleet creates the
// stack), and — when the fleet needs it (`up`, `place`, `--frozen`, a lost placement file) — which
// tenants each of this fleet's stacks holds and on which face. The placement is then checked
// against it (fleet/ownership.ts) and tenants whose shard changed are moved in the state
// (moveShardTenants), before anything is written anywhere.
import * as crypto from "node:crypto";
import { LocalWorkspace, PulumiCommand, Stack } from "@pulumi/pulumi/automation";
import type { Face } from "../sdk/nodejs/internal/face";
import { BACKEND_RACE_RETRIES, backendRaceDelayMs, isBackendTableRace } from "./backendRace";
import { FLEET_TAG, shardStackName } from "./defaults";
import { runBounded } from "./pool";
import { domainsIn, type ExportedState, faceIn, moveTenants, tenantsIn } from "./shardState";

export function newFleetId(): string {
  return crypto.randomBytes(8).toString("hex");
}

export interface ShardStack {
  shard: number;
  name: string;
  /** The fleet id tagged on the stack; undefined: untagged (made before fleets had ids). */
  owner?: string;
  /** Read only when the census was deep: the stack's tenants and face. */
  tenants?: string[];
  face?: Face;
  /** Read with the tenants: each tenant's sending domain, as the stack recorded it. */
  domains?: Map<string, string>;
}

export interface Census {
  /** The project's shard stacks that exist, by shard number. */
  stacks: Map<number, ShardStack>;
}

const SHARD_STACK = /^shard-(\d{3,})$/;

/** A workspace on the fleet's work dir (its Pulumi.yaml names the project), for state operations only. */
export async function censusWorkspace(workDir: string, secretsProvider?: string): Promise<LocalWorkspace> {
  return LocalWorkspace.create({ workDir, secretsProvider, pulumiCommand: await PulumiCommand.get() });
}

/**
 * The project's shard stacks and their owners: two `pulumi stack ls` (all, and those tagged with
 * this fleet's id) whatever the number of shards; the tag of any other shard stack is read alone
 * (none in a fleet that owns every stack of its project).
 */
export async function readStacks(
  ws: LocalWorkspace,
  fleetId: string | undefined,
  say: (line: string) => void = () => undefined,
): Promise<Census> {
  const ls = async (tag?: string): Promise<string[]> => {
    const args = ["stack", "ls", "--json", ...(tag ? ["--tag", tag] : [])];
    // The first open of an empty PostgreSQL backend creates its table and may lose that race to
    // another run (fleet/backendRace.ts): run again, as a shard would.
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await runCli(ws, args);
        return (JSON.parse(r.stdout || "[]") as Array<{ name: string }>).map((s) => s.name.split("/").pop()!);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        if (attempt > BACKEND_RACE_RETRIES || !isBackendTableRace(message)) throw e;
        const delayMs = backendRaceDelayMs(attempt);
        say(
          `[backend] the state backend's table was being created by another run at the same moment (nothing ran): ` +
            `retry ${attempt} of ${BACKEND_RACE_RETRIES} in ${(delayMs / 1000).toFixed(1)} s`,
        );
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  };
  // One after the other: on an empty backend the first creates its table.
  const all = await ls();
  const ours = fleetId ? await ls(`${FLEET_TAG}=${fleetId}`) : [];
  const stacks = new Map<number, ShardStack>();
  for (const name of all) {
    const m = SHARD_STACK.exec(name);
    if (!m) continue;
    const shard = Number(m[1]);
    const entry: ShardStack = { shard, name };
    if (ours.includes(name)) entry.owner = fleetId;
    else {
      // `stack tag get` fails on a stack without the tag: untagged.
      const owner = await ws.getTag(name, FLEET_TAG).catch(() => undefined);
      if (owner) entry.owner = owner;
    }
    stacks.set(shard, entry);
  }
  return { stacks };
}

/**
 * A Pulumi CLI command in the workspace's directory and environment, for what the Automation API
 * does not offer (`stack ls --tag`, `stack export` without `--show-secrets`).
 */
export function runCli(ws: LocalWorkspace, args: string[]): Promise<{ stdout: string }> {
  const cli = ws.pulumiCommand as unknown as {
    run(args: string[], cwd: string, env: Record<string, string>): Promise<{ stdout: string }>;
  };
  return cli.run(args, ws.workDir, ws.envVars);
}

/** Reads the tenants and face of the given stacks (`pulumi stack export`), `parallel` at a time. */
export async function readTenants(ws: LocalWorkspace, census: Census, shards: number[], parallel: number) {
  const wanted = shards.map((s) => census.stacks.get(s)).filter((s): s is ShardStack => s !== undefined);
  await runBounded(wanted, parallel, async (entry) => {
    const state = (await ws.exportStack(entry.name)) as ExportedState;
    entry.tenants = tenantsIn(state);
    entry.face = faceIn(state);
    entry.domains = domainsIn(state);
  });
}

/** tenant → every shard whose stack holds it (more than one only after a move was interrupted). */
export function heldBy(census: Census): Map<string, number[]> {
  const held = new Map<string, number[]>();
  for (const s of [...census.stacks.values()].sort((a, b) => a.shard - b.shard)) {
    for (const t of s.tenants ?? []) held.set(t, [...(held.get(t) ?? []), s.shard]);
  }
  return held;
}

export async function tagStack(ws: LocalWorkspace, shard: number, fleetId: string): Promise<void> {
  await ws.setTag(shardStackName(shard), FLEET_TAG, fleetId);
}

/**
 * Moves tenants between shard stacks in the state (fleet/shardState.ts): per (from, to) pair, both
 * states exported with their secrets shown, the destination imported first (its import encrypts
 * the moved secrets with its own secrets provider), then the source. A destination that does not
 * exist yet is created as the fleet creates a shard: its salt pinned, tagged with the fleet's id.
 * Interrupted between the two imports, the tenant is in both stacks; the next census sees it and
 * the same move only takes it out of the source.
 */
export async function moveShardTenants(
  ws: LocalWorkspace,
  moves: ReadonlyArray<{ tenant: string; from: number; to: number }>,
  where: { project: string; fleetId: string; exists: (shard: number) => boolean },
  say: (line: string) => void,
): Promise<void> {
  const pairs = new Map<string, { from: number; to: number; tenants: string[] }>();
  for (const m of moves) {
    const key = `${m.from}>${m.to}`;
    const pair = pairs.get(key) ?? { from: m.from, to: m.to, tenants: [] };
    pair.tenants.push(m.tenant);
    pairs.set(key, pair);
  }
  for (const { from, to, tenants } of pairs.values()) {
    const [source, dest] = [shardStackName(from), shardStackName(to)];
    const started = Date.now();
    if (!where.exists(to)) {
      await Stack.createOrSelect(dest, ws);
      await tagStack(ws, to, where.fleetId);
    }
    const [sourceState, destState] = await Promise.all([ws.exportStack(source), ws.exportStack(dest)]);
    const moved = moveTenants(sourceState as ExportedState, destState as ExportedState, tenants, {
      source,
      dest,
      project: where.project,
    });
    await ws.importStack(dest, moved.dest);
    await ws.importStack(source, moved.source);
    say(
      `moved ${tenants.join(", ")} from ${source} to ${dest} in the state (${moved.moved} resources, ids and ` +
        `secrets kept, nothing sent to the service) in ${((Date.now() - started) / 1000).toFixed(1)}s`,
    );
  }
}
