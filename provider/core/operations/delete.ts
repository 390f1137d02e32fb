// delete: a 404 counts as done (the object is already gone), and so does another object in its
// place under the same name, which is left as it is (fetchRecord.ts stillThere).
import { isNotFound } from "../api";
import type { Props } from "../declaration";
import { progress } from "../progress";
import { type KindContext, connect } from "./context";
import { stillThere } from "./fetchRecord";
import { what } from "./names";
import { withScopeHint } from "./scopeHint";

export async function deleteObject(k: KindContext, id: string, props: Props): Promise<void> {
  if (k.stateObjects.wasRecordedByCreate(id)) {
    // The engine deletes a replaced object after its replacement's create. A create of this run
    // returned this very id (stateObjects.ts): deleting it would leave the resource no object.
    progress(
      `${what(k.declaration, props, id)}: not deleted, and not replaced: the replacement's create got this same ` +
        `object back — the service answers a resource's idempotency key with the object it made for 24 h, and a ` +
        `targeted replacement (\`--replace\`, \`replaceWith\`, \`deletedWith\`) gives the provider no way to tell ` +
        `it from a rerun. It stays the resource's object. To replace it now, change a field that forces a ` +
        `replacement or declare one in \`replaceOnChanges\` and change it.`,
      undefined,
      "WARNING",
    );
    return;
  }
  const { conn, api } = connect(k, props);
  if (!(await stillThere(k, { conn, api }, props, id))) return;
  try {
    await withScopeHint(k, "delete", props, () => api.delete(k.declaration.itemPath(conn, props, id)));
  } catch (err) {
    if (!isNotFound(err))
      throw new Error(`${what(k.declaration, props, id)}: ${(err as Error).message}`, { cause: err });
  }
}
