// delete: a 404 counts as done (the object is already gone).
import { isNotFound } from "../api";
import type { Props } from "../declaration";
import { type KindContext, connect } from "./context";
import { what } from "./names";
import { withScopeHint } from "./scopeHint";

export async function deleteObject(k: KindContext, id: string, props: Props): Promise<void> {
  if (k.watches) return; // it made nothing at the service
  const { conn, api } = connect(k, props);
  try {
    await withScopeHint(k, "delete", props, () => api.delete(k.declaration.itemPath(conn, props, id)));
  } catch (err) {
    if (!isNotFound(err))
      throw new Error(`${what(k.declaration.kind, props, id)}: ${(err as Error).message}`, { cause: err });
  }
}
