// A create answered 422 "key already used with a different payload" (docs/contract/idempotency.md#rule-2).
//
// A create's idempotency key is derived from what makes it *this* object — the stack's salt, the
// URN, the account, the path and the fields that cannot change in place — and not from the fields
// that can (core/operations/create.ts). So the key is this resource's creation slot: the same key
// with another body means an earlier attempt of this very resource, within the service's 24 h
// record lifetime, sent other updatable values. That happens when a run is killed after the service
// committed a create (nothing recorded it: state written once per run, or pending operations
// cleared) and the program changed before the rerun. Without this the rerun would make a second
// object beside the first.
//
// The earlier attempt's object, if it committed and still exists, is in this collection: created in
// the last 24 h, claimed by no other resource of this run, with this resource's fixed fields and
// name. Found once, it is taken over (updated to the program's values) — or, for a kind whose secret
// the service returns only at creation, deleted and made again, so the secret is known. Found
// nowhere: the attempt created nothing (a stored 4xx) or its object is gone, and the next derived
// key is safe. Found more than once: the run stops, naming them.
import { camelToSnake } from "../casing";
import type { Ctx, Props } from "../declaration";
import { matchesCreation } from "../uncertainCreate";
import { isNotFound } from "../api";
import { progress } from "../progress";
import { adopt } from "./adopt";
import type { KindContext } from "./context";
import { what } from "./names";
import { unclaimedSince } from "./twins";
import { withScopeHint } from "./scopeHint";

/** The service's idempotency record lifetime (docs/contract/idempotency.md#rule-5). */
const RECORD_LIFETIME_MS = 24 * 3600_000;

/** The fields a create's key stands for: those that cannot change in place (plus provider-local triggers). */
export function identityFields(k: KindContext): readonly string[] {
  return k.declaration.replaceOn.filter((f) => k.declaration.apiFields.includes(f));
}

export async function recoverMismatch(
  k: KindContext,
  ctx: Ctx,
  props: Props,
  collection: string,
  body: Record<string, unknown>,
): Promise<{ id: string; outs: Props } | "next-key"> {
  const { declaration } = k;
  const found = await earlierAttempts(k, ctx, props, collection, body);
  if (found.length === 0) return "next-key";
  if (found.length > 1) {
    throw new Error(
      `${what(declaration.kind, props)}: an earlier run created this resource with other values and did not record it, ` +
        `and ${found.length} objects could be it (${found.map((r) => k.idOf(r)).join(", ")}); the provider does not ` +
        `choose. Keep one with \`adoptId: "<its id>"\` and delete the others, then run \`pulumi up\` again.`,
    );
  }
  const earlier = found[0]!;
  const id = k.idOf(earlier);
  if (Object.keys(declaration.createOnly ?? {}).length === 0) {
    progress(
      `${what(declaration.kind, props, id)}: taken over from an earlier run that created it with other values and did not record it.`,
      props.__urn,
    );
    return adopt(k, { ...props, adoptId: id });
  }
  // Its secret was shown only to the run that made it: make the object again, so it is known.
  await withScopeHint(k, "delete", props, () => ctx.api.delete(declaration.itemPath(ctx.conn, props, id))).catch(
    (err) => {
      if (!isNotFound(err)) throw err;
    },
  );
  progress(
    `${what(declaration.kind, props, id)}: deleted; an earlier run created it with other values and did not record it, and ` +
      `its secret was returned only to that run. Creating it again.`,
    props.__urn,
  );
  return "next-key";
}

/** Unclaimed objects of the collection made in the last 24 h with this resource's fixed fields and name. */
function earlierAttempts(
  k: KindContext,
  ctx: Ctx,
  props: Props,
  collection: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const { listing } = k.declaration;
  // What a person calls it (its name, label, address), where the kind has one.
  const titleOf = "title" in listing ? listing.title : undefined;
  const live = "title" in listing ? listing.live : undefined;
  const title = titleOf?.(body);
  const now = Date.now();
  const fixed = identityFields(k);
  return unclaimedSince(
    k,
    ctx,
    props,
    collection,
    now - RECORD_LIFETIME_MS,
    (rec) =>
      (!live || live(rec, now)) &&
      (!titleOf || titleOf(rec) === title) &&
      matchesCreation(k.outputsOf(rec), props, fixed),
  );
}

/** The body restricted to the fields the key stands for (API names), for the key's derivation. */
export function identityBody(k: KindContext, body: Record<string, unknown>): Record<string, unknown> {
  const keep = new Set(identityFields(k).map(camelToSnake));
  return Object.fromEntries(Object.entries(body).filter(([f]) => keep.has(f)));
}
