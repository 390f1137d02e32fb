// Every tenant exactly once: the service's objects against the ids the fleet's shard stacks record,
// read with `pulumi stack export` (any backend). Shared by the fleet's e2e tests and bench/fleet.ts.
import { execFile } from "node:child_process";
import { OBJECT_KINDS } from "../provider/api/kinds";
import { serviceObjects, type EmulatorControl } from "./control";

export interface Integrity {
  serviceObjects: number;
  stateObjects: number;
  /** Sub accounts with the same name (a tenant made twice) plus ids recorded by two resources. */
  duplicates: number;
  /** At the service, in no shard's state. */
  orphans: number;
  /** In a shard's state, not at the service. */
  missing: number;
}

/**
 * The kinds whose resources are objects at the service: the same kinds `serviceObjects` counts, so
 * the two sides compare alike (a DomainVerification makes no object and is in neither).
 */
const KINDS = new Set<string>(OBJECT_KINDS);

type Deployment = { deployment?: { resources?: Array<{ type: string; id?: string; custom?: boolean }> } };

/** The txmail objects one exported shard stack records. */
export function stateObjectsOf(exported: Deployment): Array<{ kind: string; id: string }> {
  const out: Array<{ kind: string; id: string }> = [];
  for (const r of exported.deployment?.resources ?? []) {
    const kind = r.type.split(":").pop()!;
    if (r.custom !== false && KINDS.has(kind) && /txmail:/.test(r.type)) out.push({ kind, id: r.id ?? "" });
  }
  return out;
}

/** `pulumi stack export` of a shard stack, with the backend and passphrase of `env`. */
export function exportStack(stack: string, env: NodeJS.ProcessEnv, cwd: string): Promise<Deployment> {
  return new Promise((resolve, reject) =>
    execFile(
      "pulumi",
      ["stack", "export", "--stack", stack],
      { env, cwd, maxBuffer: 512 * 1024 * 1024 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${stack}: ${stderr || err.message}`)) : resolve(JSON.parse(stdout)),
    ),
  );
}

export async function integrity(
  control: EmulatorControl,
  baseline: Set<string>,
  state: Array<{ kind: string; id: string }>,
): Promise<Integrity> {
  const dump = await control.dumpState();
  const service = serviceObjects(dump).filter((o) => !baseline.has(o.id));
  const key = (o: { kind: string; id: string }) => `${o.kind} ${o.id}`;
  const inState = new Set(state.map(key));
  const inService = new Set(service.map(key));
  const names = dump.accounts
    .filter((a) => a.parent_account_id !== null && a.status !== "deleted")
    .map((a) => a.name as string);
  return {
    serviceObjects: service.length,
    stateObjects: state.length,
    duplicates: names.length - new Set(names).size + (state.length - inState.size),
    orphans: service.filter((o) => !inState.has(key(o))).length,
    missing: state.filter((o) => !inService.has(key(o))).length,
  };
}
