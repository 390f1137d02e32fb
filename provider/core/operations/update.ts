// update: sends only the fields that changed (the service rejects no-op updates), then the declaration's
// reconcile step; one-time secrets stay as state had them. Another object in the place of a
// natural-key object is never changed (fetchRecord.ts requireThisObject).
import { deepEqual } from "../canonicalJson";
import { camelToSnake } from "../casing";
import type { Ctx, Props } from "../declaration";
import { type KindContext, connect } from "./context";
import { requireThisObject } from "./fetchRecord";
import { diff } from "./diff";
import { withScopeHint } from "./scopeHint";
import { keptSecrets, stateOf, stored, withState } from "./state";

export async function update(k: KindContext, id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const ctx = connect(k, news);
  // New credentials for the same account and nothing else (a Tenant's rotated bootstrap key, which
  // its children are reached with): the object is not touched, so there is nothing to send, to
  // prove or to reconcile — state records the credentials the next operation uses, with no request.
  if (await credentialsOnly(k, olds, news))
    return { outs: stateOf({ ...olds, ...stored(k, news), ...keptSecrets(k, olds) }) };
  await requireThisObject(k, ctx, olds, id);
  const { record, state } = await updateRemote(k, ctx, olds, news, id);
  return {
    outs: stateOf(
      withState(
        { ...olds, ...stored(k, news), ...(record ? k.outputsOf(record) : {}), ...keptSecrets(k, olds) },
        state,
      ),
    ),
  };
}

/** Whether the diff's only change is the connection's credentials (a new account would replace). */
async function credentialsOnly(k: KindContext, olds: Props, news: Props): Promise<boolean> {
  const d = await diff(k, olds, news);
  return (d.replaces ?? []).length === 0 && deepEqual(d.diffs ?? [], ["connection"]);
}

/**
 * The fields an update sends: those the program sets to other values than `olds` holds (write-only
 * ones are never compared: no record shows them). None for a kind the service cannot update.
 */
export function changedFields(k: KindContext, olds: Props, news: Props): string[] {
  if (k.declaration.immutable) return [];
  return k.declaration.apiFields.filter(
    (f) => !k.writeOnly.has(f) && news[f] !== undefined && !deepEqual(olds[f], news[f]),
  );
}

/**
 * The service side of an update (also how an adopted object converges to the program), through the
 * connection the caller resolved for `news`: one resolution per operation.
 */
export async function updateRemote(
  k: KindContext,
  { conn, api }: Ctx,
  olds: Props,
  news: Props,
  id: string,
): Promise<{ record?: Record<string, unknown>; state?: Props }> {
  const { declaration } = k;
  const path = declaration.itemPath(conn, news, id);
  const changed = changedFields(k, olds, news);
  let record: Record<string, unknown> | undefined;
  let state: Props | undefined;
  if (changed.length > 0) {
    let body: Record<string, unknown> = Object.fromEntries(changed.map((f) => [camelToSnake(f), news[f]]));
    if (declaration.prepareUpdate) ({ body, state } = declaration.prepareUpdate(olds, news, body));
    const sent = body;
    if (Object.keys(sent).length > 0)
      record = await withScopeHint(k, "write", news, () => api.put(path, sent, declaration.record));
  }
  const reconcile = declaration.reconcile;
  if (reconcile) {
    record = await withScopeHint(k, "write", news, async () => {
      const current = record ?? (await api.get(path, declaration.record));
      return reconcile({ conn, api }, { ...news, id }, current, olds);
    });
  }
  return { record, state };
}
