// delete: a 404 counts as done (the object is already gone), and so does another object in its
// place under the same name, which is left as it is (fetchRecord.ts stillThere).
import { isNotFound } from "../api";
import type { Props } from "../declaration";
import { type KindContext, connect } from "./context";
import { stillThere } from "./fetchRecord";
import { what } from "./names";
import { withScopeHint } from "./scopeHint";

export async function deleteObject(k: KindContext, id: string, props: Props): Promise<void> {
  if (k.watches) return; // it made nothing at the service
  const { conn, api } = connect(k, props);
  if (!(await stillThere(k, { conn, api }, props, id))) return;
  try {
    await withScopeHint(k, "delete", props, () => api.delete(k.declaration.itemPath(conn, props, id)));
  } catch (err) {
    if (!isNotFound(err))
      throw new Error(`${what(k.declaration.kind, props, id)}: ${(err as Error).message}`, { cause: err });
  }
}
