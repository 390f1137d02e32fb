// What a shard stack's state (`pulumi stack export`) holds, and tenants moved between two of them.
// Pure functions on the exported deployments: the fleet reads and writes the stacks
// (fleet/census.ts, its moveShardTenants for a move).
//
// A move is the engine's own state surgery, as `pulumi state move` does it: the tenant's component
// and every resource under it leave the source state and enter the destination's with their ids,
// inputs and outputs as they are, only their URNs renamed to the destination stack. Nothing is sent
// to the service. `pulumi state move` itself cannot serve a fleet: every shard's default txmail
// provider carries its own stack's salt, so the CLI refuses a destination that already has one
// ("provider … already exists in destination stack"). Here a moved resource is pointed at the
// destination's provider of the same name (same package, version and account; only the salt
// differs, which keys only future creates), and a provider the destination lacks is copied.
import type { Face } from "../sdk/nodejs/internal/face";

export const TENANT_TYPE = "txmail:index:Tenant";
const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";
const PROVIDER_PREFIX = "pulumi:providers:";
/** The wire form of a secret in a deployment exported with --show-secrets (or encrypted). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

export interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  parent?: string;
  provider?: string;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
  deletedWith?: string;
  aliases?: string[];
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [field: string]: unknown;
}

/** `pulumi stack export`'s document (the Automation API's `Deployment`). */
export interface ExportedState {
  version: number;
  deployment: {
    manifest?: unknown;
    secrets_providers?: unknown;
    resources?: StateResource[];
    pending_operations?: unknown[];
    [field: string]: unknown;
  };
}

export class ShardStateError extends Error {
  override readonly name = "ShardStateError";
}

/** The tenants a shard stack holds: its Tenant components, by name. */
export function tenantsIn(state: ExportedState): string[] {
  return (state.deployment.resources ?? [])
    .filter((r) => r.type === TENANT_TYPE && !r.delete)
    .map((r) => nameOf(r.urn))
    .sort();
}

/** Each tenant's sending domain as its stack recorded it (its `<tenant>-domain` resource's input). */
export function domainsIn(state: ExportedState): Map<string, string> {
  const resources = state.deployment.resources ?? [];
  const tenants = new Map(resources.filter((r) => r.type === TENANT_TYPE).map((r) => [r.urn, nameOf(r.urn)]));
  const domains = new Map<string, string>();
  for (const r of resources) {
    const tenant = r.parent === undefined ? undefined : tenants.get(r.parent);
    const domain = r.inputs?.domain;
    if (tenant !== undefined && nameOf(r.urn) === `${tenant}-domain` && typeof domain === "string")
      domains.set(tenant, domain);
  }
  return domains;
}

/** How the stack's resources are registered, when it holds any (dynamic resources, or txmail's own types). */
export function faceIn(state: ExportedState): Face | undefined {
  const resources = state.deployment.resources ?? [];
  if (resources.some((r) => r.type.startsWith("pulumi-nodejs:dynamic/"))) return "dynamic";
  if (resources.some((r) => r.custom && r.type.startsWith("txmail:"))) return "native";
  return undefined;
}

/** `urn:pulumi:<stack>::<project>::<type>::<name>` → name (a name may itself hold `::`). */
export function nameOf(urn: string): string {
  return urn.split("::").slice(3).join("::");
}

function stackPrefix(stack: string, project: string): string {
  return `urn:pulumi:${stack}::${project}::`;
}

export function rootStackUrn(stack: string, project: string): string {
  return `${stackPrefix(stack, project)}${ROOT_STACK_TYPE}::${project}-${stack}`;
}

export interface MoveResult {
  source: ExportedState;
  dest: ExportedState;
  /** Resources moved (the tenants' components and everything under them). */
  moved: number;
}

/**
 * Moves `tenants` (each with every resource under its component) from `source` to `dest`, both
 * exported with their secrets shown (the destination's import encrypts them with its own secrets
 * provider). Idempotent: a tenant already in `dest` (a move interrupted between its two imports)
 * is only taken out of `source`.
 */
export function moveTenants(
  sourceState: ExportedState,
  destState: ExportedState,
  tenants: readonly string[],
  where: { source: string; dest: string; project: string },
): MoveResult {
  const { project } = where;
  const from = stackPrefix(where.source, project);
  const to = stackPrefix(where.dest, project);
  const rename = (urn: string) => (urn.startsWith(from) ? to + urn.slice(from.length) : urn);
  const source = structuredClone(sourceState);
  const dest = structuredClone(destState);
  const sourceResources = source.deployment.resources ?? [];
  requireNoPendingOperations(source, where.source, tenants);
  const moving = movingUrns(sourceResources, tenants);
  const moved = sourceResources.filter((r) => moving.has(r.urn));

  const destResources = (dest.deployment.resources ??= []);
  const destUrns = new Set(destResources.map((r) => r.urn));
  const destRoot = rootStackIn(destResources, destUrns, where.dest, project);
  const providerOf = providersIn({ source: where.source, sourceResources, destResources, destUrns, destRoot, rename });
  for (const r of moved) {
    if (destUrns.has(rename(r.urn))) continue; // moved by an earlier, interrupted move
    const copy = movedCopy(r, moving, rename, destRoot, providerOf);
    destResources.push(copy);
    destUrns.add(copy.urn);
  }

  detachFromMoved(sourceResources, moving);
  source.deployment.resources = sourceResources.filter((r) => !moving.has(r.urn));

  // The shards' per-tenant outputs follow, so `txmail-fleet output` finds the tenant in its new
  // shard before that shard's next up.
  const sourceRoot = source.deployment.resources.find((r) => r.type === ROOT_STACK_TYPE && !r.parent);
  moveOutputs(sourceRoot, destRoot, tenants);
  if (!dest.deployment.secrets_providers && source.deployment.secrets_providers) {
    // A new stack's state may not name its secrets provider yet: the source's (same passphrase or key).
    dest.deployment.secrets_providers = source.deployment.secrets_providers;
  }
  return { source, dest, moved: moved.length };
}

/** A killed run's pending operations must be settled before its tenants' state can move. */
function requireNoPendingOperations(source: ExportedState, stack: string, tenants: readonly string[]): void {
  if ((source.deployment.pending_operations ?? []).length > 0) {
    throw new ShardStateError(
      `${stack} has pending operations (a run was killed): run 'txmail-fleet up --tenant ${tenants[0]}' ` +
        `(or 'pulumi refresh --stack ${stack}') first, then move`,
    );
  }
}

/** The tenants' components and every resource under them (children follow their parents in state). */
function movingUrns(sourceResources: readonly StateResource[], tenants: readonly string[]): Set<string> {
  const moving = new Set<string>();
  for (const t of tenants) {
    const component = sourceResources.find((r) => r.type === TENANT_TYPE && nameOf(r.urn) === t);
    if (component) moving.add(component.urn);
  }
  for (const r of sourceResources) if (r.parent && moving.has(r.parent)) moving.add(r.urn);
  return moving;
}

/** The destination's root stack resource; made, first in its state, when the stack has none yet. */
function rootStackIn(resources: StateResource[], urns: Set<string>, stack: string, project: string): StateResource {
  const existing = resources.find((r) => r.type === ROOT_STACK_TYPE && !r.parent);
  if (existing) return existing;
  const root: StateResource = { urn: rootStackUrn(stack, project), custom: false, type: ROOT_STACK_TYPE };
  resources.unshift(root);
  urns.add(root.urn);
  return root;
}

/**
 * Maps a moved resource's provider reference (`urn::id`) to the destination's: the destination's
 * provider of the same URN (same package, version, URL), else a copy of the source's, added once.
 */
function providersIn(move: {
  source: string;
  sourceResources: readonly StateResource[];
  destResources: StateResource[];
  destUrns: Set<string>;
  destRoot: StateResource;
  rename: (urn: string) => string;
}): (ref: string) => string {
  const { sourceResources, destResources, destUrns, destRoot, rename } = move;
  const providerRefs = new Map<string, string>();
  return (ref: string): string => {
    const known = providerRefs.get(ref);
    if (known) return known;
    const cut = ref.lastIndexOf("::");
    const [urn, id] = [ref.slice(0, cut), ref.slice(cut + 2)];
    const target = rename(urn);
    const there = destResources.find((r) => r.urn === target);
    let mapped: string;
    if (there) {
      mapped = `${there.urn}::${there.id ?? ""}`;
    } else {
      const original = sourceResources.find((r) => r.urn === urn && r.id === id);
      if (!original)
        throw new ShardStateError(`${move.source}: provider ${ref} of a moved resource is not in its state`);
      const copy = structuredClone(original);
      copy.urn = target;
      copy.parent = destRoot.urn;
      delete copy.dependencies;
      delete copy.propertyDependencies;
      // After the root stack and other providers, before any resource that uses it.
      const at = destResources.findIndex((r) => !r.type.startsWith(PROVIDER_PREFIX) && r.type !== ROOT_STACK_TYPE);
      destResources.splice(at < 0 ? destResources.length : at, 0, copy);
      destUrns.add(target);
      mapped = `${target}::${id}`;
    }
    providerRefs.set(ref, mapped);
    return mapped;
  };
}

/** A moved resource as the destination keeps it: renamed, and pointing only at what moved with it. */
function movedCopy(
  r: StateResource,
  moving: ReadonlySet<string>,
  rename: (urn: string) => string,
  destRoot: StateResource,
  providerOf: (ref: string) => string,
): StateResource {
  const copy = structuredClone(r);
  copy.urn = rename(r.urn);
  copy.parent = r.parent && moving.has(r.parent) ? rename(r.parent) : destRoot.urn;
  if (r.provider) copy.provider = providerOf(r.provider);
  const inMove = (u: string) => moving.has(u);
  if (r.dependencies) copy.dependencies = r.dependencies.filter(inMove).map(rename);
  if (r.propertyDependencies) {
    copy.propertyDependencies = Object.fromEntries(
      Object.entries(r.propertyDependencies).map(([k, deps]) => [k, deps.filter(inMove).map(rename)]),
    );
  }
  if (r.deletedWith) {
    if (inMove(r.deletedWith)) copy.deletedWith = rename(r.deletedWith);
    else delete copy.deletedWith;
  }
  if (r.aliases) copy.aliases = r.aliases.map(rename);
  for (const bag of [copy.inputs, copy.outputs]) if (bag && bag.__urn === r.urn) bag.__urn = copy.urn;
  return copy;
}

/**
 * What the moved resources depended on outside the move can only have been the source's root stack
 * or providers; what stays behind must not point at what left.
 */
function detachFromMoved(sourceResources: readonly StateResource[], moving: ReadonlySet<string>): void {
  for (const r of sourceResources) {
    if (moving.has(r.urn)) continue;
    if (r.dependencies) r.dependencies = r.dependencies.filter((u) => !moving.has(u));
    if (r.propertyDependencies) {
      for (const k of Object.keys(r.propertyDependencies))
        r.propertyDependencies[k] = r.propertyDependencies[k]!.filter((u) => !moving.has(u));
    }
  }
}

/** Moves the tenants' entries of the shard program's `summary` and `credentials` outputs. */
function moveOutputs(from: StateResource | undefined, to: StateResource, tenants: readonly string[]): void {
  if (!from?.outputs) return;
  for (const key of ["summary", "credentials"]) {
    const src = from.outputs[key];
    if (src === undefined) continue;
    const secret = isSecret(src);
    const srcValue = secret ? secretPlaintext(src) : src;
    if (typeof srcValue !== "object" || srcValue === null) continue;
    const dstRaw = to.outputs?.[key];
    const dstValue = (dstRaw === undefined ? {} : isSecret(dstRaw) ? secretPlaintext(dstRaw) : dstRaw) as Record<
      string,
      unknown
    >;
    const srcMap = srcValue as Record<string, unknown>;
    for (const t of tenants) {
      if (!Object.hasOwn(srcMap, t)) continue;
      dstValue[t] = srcMap[t];
      delete srcMap[t];
    }
    from.outputs[key] = secret ? asSecret(srcMap) : srcMap;
    to.outputs = {
      ...to.outputs,
      [key]: secret || (dstRaw !== undefined && isSecret(dstRaw)) ? asSecret(dstValue) : dstValue,
    };
  }
}

function isSecret(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && (v as Record<string, unknown>)[SECRET_SIG] !== undefined;
}

function secretPlaintext(v: Record<string, unknown>): unknown {
  if (typeof v.plaintext !== "string") {
    throw new ShardStateError("a secret output is encrypted: the state must be exported with its secrets shown");
  }
  return JSON.parse(v.plaintext);
}

function asSecret(value: unknown): Record<string, unknown> {
  return { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(value) };
}
