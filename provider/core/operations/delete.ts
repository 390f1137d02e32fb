// delete: a 404 counts as done (the object is already gone).
import { isNotFound } from "../api";
import type { Props } from "../declaration";
import { progress } from "../progress";
import { type KindContext, connect } from "./context";
import { what } from "./names";
import { withScopeHint } from "./scopeHint";

export async function deleteObject(k: KindContext, id: string, props: Props): Promise<void> {
  if (k.watches) return; // it made nothing at the service
  if (k.stateObjects.isReplacementMadeHere(id)) {
    // The engine deletes a replaced object after its replacement's create: this id is what that
    // create recorded, so deleting it would leave the resource with no object (stateObjects.ts).
    progress(
      `${what(k.declaration.kind, props, id)}: not deleted: it is the object this run's replacement recorded ` +
        `for the resource, not the one it replaced.`,
      undefined,
      "WARNING",
    );
    return;
  }
  const { conn, api } = connect(k, props);
  try {
    await withScopeHint(k, "delete", props, () => api.delete(k.declaration.itemPath(conn, props, id)));
  } catch (err) {
    if (!isNotFound(err))
      throw new Error(`${what(k.declaration.kind, props, id)}: ${(err as Error).message}`, { cause: err });
  }
  k.stateObjects.sawDeleted(id);
}
