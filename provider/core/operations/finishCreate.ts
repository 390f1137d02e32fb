// The end of every create (fresh, or recovered after a retried failure): the object is held in
// this process, reconciled, and turned into the outputs state keeps.
import type { Ctx, Props } from "../declaration";
import { holdHere } from "../uncertainCreate";
import type { KindContext } from "./context";
import { withScopeHint } from "./scopeHint";
import { secretsFrom, stateOf, stored, withoutCreateOnly } from "./state";

export async function finishCreate(
  k: KindContext,
  ctx: Ctx,
  props: Props,
  collection: string,
  id: string,
  created: Record<string, unknown>,
): Promise<{ id: string; outs: Props }> {
  holdHere(collection, id);
  let record = withoutCreateOnly(k, created);
  const reconcile = k.declaration.reconcile;
  if (reconcile) record = await withScopeHint(k, "write", props, () => reconcile(ctx, { ...props, id }, record));
  return { id, outs: stateOf({ ...stored(k, props), ...k.outputsOf(record), ...secretsFrom(k, created) }) };
}
