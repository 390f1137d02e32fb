// One generic provider, driven by a Declaration: every resource gets the same semantics. The
// operations live one a file in ./operations (check, diff, create and adopt, read, update, delete,
// the twin sweep and conflict recovery), each taking the kind's context, so the dynamic face (this
// Provider, through provider/runtime.ts) and the native face call the same code.
import type { Api } from "./api";
import type { Connection } from "./connection";
import {
  type CheckFailure,
  type DiffResult,
  check,
  create,
  deleteObject,
  diff,
  kindContext,
  read,
  update,
} from "./operations";
import type { Props, Declaration, AnyDeclaration } from "./declaration";
import { withRotation } from "./rotating";

export { type CheckFailure, toFailures } from "./operations";

export interface Provider {
  check(olds: Props, news: Props): Promise<{ inputs?: Props; failures?: CheckFailure[] }>;
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props?: Props): Promise<{ id?: string; props?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
}

export function makeProvider<I extends Record<string, unknown>>(
  declaration: Declaration<I>,
  apiFor: (conn: Connection) => Api,
): Provider {
  const k = kindContext(declaration, apiFor);
  // Capabilities a declaration opts into wrap the generic operations (rotating/index.ts).
  return withRotation(declaration as unknown as AnyDeclaration, {
    // What the engine says of the state's object for this resource, for a replacement's create
    // (stateObjects.ts).
    check: (olds, news) => {
      k.stateObjects.sawOldInputs(news.__urn, olds);
      return check(k, olds, news);
    },
    diff: (id, olds, news) => {
      k.stateObjects.sawStateId(news.__urn, id);
      return diff(k, olds, news);
    },
    create: (inputs) => create(k, inputs),
    read: (id, props) => read(k, id, props),
    update: (id, olds, news) => {
      k.stateObjects.sawStateId(news.__urn, id);
      return update(k, id, olds, news);
    },
    delete: (id, props) => {
      k.stateObjects.sawStateId(props.__urn, id); // the native face names the URN; the dynamic face's outputs do not
      return deleteObject(k, id, props);
    },
  });
}
