// One generic provider, driven by a Declaration: every resource gets the same semantics. The
// operations live one a file in ./operations (check, diff, create and adopt, read, update, delete,
// the twin sweep and conflict recovery), each taking the kind's context, so the dynamic face (this
// Provider, through provider/runtime.ts) and the native face call the same code. A capability the
// declaration opts into brings its own operations in place of generic ones (`watches`: watch.ts).
import type { Api } from "./api";
import type { Connection } from "./connection";
import {
  check,
  create,
  deleteObject,
  diff,
  kindContext,
  read,
  update,
  type OwnOperations,
  watching,
} from "./operations";
import type { Declaration, AnyDeclaration } from "./declaration";
import type { Provider } from "./provider";
import { withRotation } from "./rotating";

export { type CheckFailure, toFailures } from "./operations";
export type { Provider } from "./provider";

export function makeProvider<I extends Record<string, unknown>>(
  declaration: Declaration<I>,
  apiFor: (conn: Connection) => Api,
): Provider {
  const k = kindContext(declaration, apiFor);
  const generic: OwnOperations = {
    create: (inputs) => create(k, inputs),
    delete: (id, props) => deleteObject(k, id, props),
  };
  const own = declaration.watches ? watching(k, declaration.watches) : generic;
  // Capabilities a declaration opts into wrap the generic operations (rotating/index.ts).
  return withRotation(declaration as unknown as AnyDeclaration, {
    // What the engine says of the state's object for this resource, for a replacement's create
    // (stateObjects.ts).
    check: (olds, news) => {
      k.stateObjects.sawOldInputs(news.__urn, olds);
      return check(k, olds, news, own.refusals);
    },
    diff: (id, olds, news) => {
      k.stateObjects.sawStateId(news.__urn, id);
      return diff(k, olds, news);
    },
    create: own.create,
    read: (id, props) => read(k, id, props),
    update: (id, olds, news) => {
      k.stateObjects.sawStateId(news.__urn, id);
      return update(k, id, olds, news);
    },
    delete: (id, props) => {
      k.stateObjects.sawStateId(props.__urn, id); // the native face names the URN; the dynamic face's outputs do not
      return own.delete(id, props);
    },
  });
}
