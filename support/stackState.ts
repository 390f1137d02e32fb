// What a test stack's checkpoint holds, read with `pulumi stack export`: its service objects (the
// txmail resources, by kind and id), its stack salt, and the operations an interrupted run left pending.
import { STACK_SALT_TYPE } from "../sdk/nodejs/internal/stackSalt";
import type { TestStack } from "./stack";

interface Exported {
  deployment: {
    resources?: Array<{
      urn: string;
      type: string;
      id?: string;
      custom?: boolean;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
    }>;
    pending_operations?: Array<{ type: string; resource: { urn: string } }>;
  };
}

const exported = async (t: TestStack) => JSON.parse(await t.exportText(false)) as Exported;

/** A txmail resource of either face: `pulumi-nodejs:dynamic/txmail:<Kind>` or `txmail:index:<Kind>` (not a component). */
const isServiceObject = (r: { type: string; custom?: boolean }) =>
  r.custom !== false && (r.type.startsWith("pulumi-nodejs:dynamic/txmail:") || r.type.startsWith("txmail:index:"));

/** The service objects the stack's state records (every txmail resource, by kind and id). */
export async function stateObjects(t: TestStack): Promise<Array<{ kind: string; id: string }>> {
  return ((await exported(t)).deployment.resources ?? [])
    .filter(isServiceObject)
    .map((r) => ({ kind: r.type.split(":").pop()!, id: r.id ?? "" }));
}

/** Each txmail resource's outputs by kind and id, as the state records them. */
export async function stateOutputs(t: TestStack): Promise<Map<string, Record<string, unknown>>> {
  const resources = ((await exported(t)).deployment.resources ?? []).filter(isServiceObject);
  return new Map(resources.map((r) => [`${r.type.split(":").pop()} ${r.id}`, r.outputs ?? {}]));
}

/**
 * The salt this stack's idempotency keys are derived with (undefined before its first up): the
 * dynamic face's StackSalt resource, or the native face's provider's input.
 */
export async function stackSaltOf(t: TestStack): Promise<string | undefined> {
  const resources = (await exported(t)).deployment.resources ?? [];
  const salt = resources.find((r) => r.type === STACK_SALT_TYPE);
  if (salt) return salt.outputs?.salt as string | undefined;
  const provider = resources.find((r) => r.type === "pulumi:providers:txmail");
  return provider?.inputs?.__stackSalt as string | undefined;
}

/** Operations the engine recorded as started and never finished (a hard stop leaves them). */
export async function pendingOperations(t: TestStack): Promise<Array<{ type: string; urn: string }>> {
  return ((await exported(t)).deployment.pending_operations ?? []).map((o) => ({ type: o.type, urn: o.resource.urn }));
}

/** Ids grouped by kind, sorted: equal for two lists holding the same objects. */
export function byKind(xs: Array<{ kind: string; id: string }>): Record<string, string[]> {
  const m: Record<string, string[]> = {};
  for (const x of xs) (m[x.kind] ??= []).push(x.id);
  for (const k of Object.keys(m)) m[k]!.sort();
  return m;
}
