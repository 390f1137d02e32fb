// Twins: objects of a collection that look like the one just created, made by an earlier attempt
// of the same create that failed with a 5xx after committing (see core/uncertainCreate.ts).
import { isNotFound } from "../api";
import type { Ctx, Props } from "../declaration";
import { createdSince, isClaimed, matchesCreation, settleOthers } from "../uncertainCreate";
import { progress } from "../progress";
import type { KindContext } from "./context";
import { what } from "./names";
import { withScopeHint } from "./scopeHint";

/** Unclaimed objects of `collection` created since `started` whose creation fields match the program's. */
export function twinsOf(
  k: KindContext,
  ctx: Ctx,
  props: Props,
  collection: string,
  started: number,
  exceptId?: string,
): Promise<Record<string, unknown>[]> {
  return unclaimedSince(
    k,
    ctx,
    props,
    collection,
    started,
    (rec) => k.idOf(rec) !== exceptId && matchesCreation(k.outputsOf(rec), props, k.creationFields),
  );
}

/**
 * Objects of `collection` that no resource of this process claims, created since `since`, that pass
 * `matches`: listed once, after this process's other creates in the collection have settled.
 */
export async function unclaimedSince(
  k: KindContext,
  ctx: Ctx,
  props: Props,
  collection: string,
  since: number,
  matches: (record: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>[]> {
  const { declaration } = k;
  await settleOthers(collection);
  const found: Record<string, unknown>[] = [];
  for await (const rec of ctx.api.list(
    declaration.collectionPath(ctx.conn, props),
    declaration.record,
    declaration.listQuery?.(props),
  )) {
    if (isClaimed(collection, k.idOf(rec)) || !createdSince(rec.created_at, since)) continue;
    if (matches(rec)) found.push(rec);
  }
  return found;
}

/** After a retried 5xx: deletes the object the failed attempt committed, if there is one. */
export async function sweepTwins(
  k: KindContext,
  ctx: Ctx,
  props: Props,
  collection: string,
  id: string,
  started: number,
): Promise<void> {
  for (const twin of await twinsOf(k, ctx, props, collection, started, id)) {
    const twinId = k.idOf(twin);
    await withScopeHint(k, "delete", props, () =>
      ctx.api.delete(k.declaration.itemPath(ctx.conn, props, twinId)),
    ).catch((err) => {
      if (!isNotFound(err)) throw err;
    });
    progress(
      `${what(k.declaration.kind, props, id)}: deleted ${twinId}, a duplicate the service created when an earlier attempt of this ` +
        `create failed with a server error after it had committed (idempotency rule 6: 5xx outcomes are not stored).`,
      props.__urn,
    );
  }
}
