// One object by id, as the service has it now — and whether what the service holds there is that
// object. A kind the service addresses by a key that outlives the object (Declaration.naturalKey: a
// domain's name, a suppression's address, a member's user id) can show another object in its place
// once it is removed: another stack's, made since under the same name. Such an object is never read
// as this one, updated, deleted or counted as this one's existence: `identify` is the one check,
// `fetchRecord` the record only when it is this object.
import { isNotFound } from "../api";
import { deepEqual } from "../canonicalJson";
import type { Ctx, Props } from "../declaration";
import { progress } from "../progress";
import type { KindContext } from "./context";
import { what } from "./names";
import { withScopeHint } from "./scopeHint";

export type Found =
  /** The object state names; `id` is its Pulumi id (a state that named it by its name gets its uuid). */
  | { kind: "this"; id: string; record: Record<string, unknown> }
  /** Nothing there. */
  | { kind: "gone" }
  /** Another object in its place, `id` its Pulumi id: never this one's to read, change or delete. */
  | { kind: "another"; id: string; record: Record<string, unknown> };

/** What the service holds where the object `id` (with state `props`) is addressed. */
export async function identify(k: KindContext, ctx: Ctx, props: Props, id: string): Promise<Found> {
  const record = await fetchAt(k, ctx, props, id);
  if (!record) return { kind: "gone" };
  return isThisObject(k, record, props, id)
    ? { kind: "this", id: k.idOf(record), record }
    : { kind: "another", id: k.idOf(record), record };
}

/** The record, or undefined when the object does not exist (or another object is in its place). */
export async function fetchRecord(
  k: KindContext,
  ctx: Ctx,
  props: Props,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const found = await identify(k, ctx, props, id);
  return found.kind === "this" ? found.record : undefined;
}

/**
 * The record is the object state names: its id (or, for a kind that declares it, its name, which
 * states of stacks imported by name hold), and each identity field state has.
 */
export function isThisObject(k: KindContext, record: Record<string, unknown>, props: Props, id: string): boolean {
  const key = k.declaration.naturalKey;
  if (k.idOf(record) !== id && key?.nameOf?.(record) !== id) return false;
  const live = k.outputsOf(record);
  return (key?.identity ?? []).every((f) => props[f] === undefined || deepEqual(props[f], live[f]));
}

/** The identity fields of a record as state keeps them (what `isThisObject` compares). */
export function identityOf(k: KindContext, record: Record<string, unknown>): Props {
  const live = k.outputsOf(record);
  return Object.fromEntries((k.declaration.naturalKey?.identity ?? []).map((f) => [f, live[f]]));
}

/** Inputs without the natural key, so `fetch` finds the object an id (an `adoptId`) names, not the name's. */
export function byIdAlone(k: KindContext, props: Props): Props {
  const copy: Props = { ...props };
  for (const f of k.declaration.naturalKey?.inputs ?? []) delete copy[f];
  return copy;
}

/**
 * Before a delete: whether the object to delete is still there. For a kind addressed by its id
 * nothing is asked (the path names that object alone). For a natural key, another object in its
 * place is left as it is, and said: this stack's object is gone already.
 */
export async function stillThere(k: KindContext, ctx: Ctx, props: Props, id: string): Promise<boolean> {
  if (!k.declaration.naturalKey) return true;
  const found = await withScopeHint(k, "read", props, () => identify(k, ctx, props, id));
  if (found.kind === "another") {
    progress(
      `${what(k.declaration, props, id)}: gone already; another ${k.declaration.kind} is in its place (` +
        `${found.id}${createdOf(found.record)}), which this stack did not make: it was not deleted.`,
      props.__urn,
      "WARNING",
    );
  }
  return found.kind === "this";
}

/** Before an update: the object must be the one state names; another in its place is never changed. */
export async function requireThisObject(k: KindContext, ctx: Ctx, props: Props, id: string): Promise<void> {
  if (!k.declaration.naturalKey) return;
  const found = await withScopeHint(k, "read", props, () => identify(k, ctx, props, id));
  if (found.kind === "another") {
    throw new Error(
      `${what(k.declaration, props, id)}: not updated: this stack's object is gone, and another ` +
        `${k.declaration.kind} is in its place (${found.id}${createdOf(found.record)}), which this stack did not ` +
        `make; it was not changed. Run \`pulumi refresh\` to drop the gone object from state; the next ` +
        `\`pulumi up\` then names the other one and how to adopt it.`,
    );
  }
}

/** `, created …` when the record says when. */
export function createdOf(record: Record<string, unknown>): string {
  return typeof record.created_at === "string" ? `, created ${record.created_at}` : "";
}

/** The record at the object's address (the declaration's own read, else GET itemPath), or undefined. */
async function fetchAt(
  k: KindContext,
  ctx: Ctx,
  props: Props,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  if (k.declaration.fetch) return k.declaration.fetch(ctx, props, id);
  try {
    return await ctx.api.get(k.declaration.itemPath(ctx.conn, props, id), k.declaration.record);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
