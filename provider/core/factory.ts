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
import type { Props, Declaration } from "./declaration";

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
  return {
    check: (olds, news) => check(k, olds, news),
    diff: (_id, olds, news) => diff(k, olds, news),
    create: (inputs) => create(k, inputs),
    read: (id, props) => read(k, id, props),
    update: (id, olds, news) => update(k, id, olds, news),
    delete: (id, props) => deleteObject(k, id, props),
  };
}
