// diff: compares only the inputs the program sets, against the last known service values, so drift
// found by refresh becomes an update and counters never become a diff.
import { deepEqual } from "../canonicalJson";
import { accountOf } from "../connection";
import type { Props } from "../declaration";
import { isUnknown } from "../unknowns";
import type { KindContext } from "./context";
import { digest } from "./state";

export interface DiffResult {
  changes: boolean;
  replaces?: string[];
  deleteBeforeReplace?: boolean;
  /** Every changed input (replacing or not), for a native provider's detailed diff. */
  diffs?: string[];
}

export async function diff(k: KindContext, olds: Props, news: Props): Promise<DiffResult> {
  const { declaration } = k;
  const changed: string[] = [];
  const replaces: string[] = [];
  // The resource option, as the engine applies it to a detailed diff ("*": any change replaces).
  const optedIn = new Set(Array.isArray(news.__replaceOnChanges) ? news.__replaceOnChanges : []);
  for (const f of [...declaration.apiFields, ...k.localFields]) {
    if (news[f] === undefined) continue; // not managed by the program: the service's value stands
    const next = k.writeOnly.has(f) ? digest(news[f]) : news[f];
    if (isUnknown(news[f]) || !deepEqual(olds[f], next)) {
      changed.push(f);
      if (declaration.replaceOn.includes(f) || declaration.immutable || optedIn.has(f) || optedIn.has("*"))
        replaces.push(f);
    }
  }
  // State that calls for the kind's reconcile again (a record a refresh found gone).
  changed.push(...(declaration.unsettled?.(olds) ?? []));
  // A different account means a different object; new credentials for the same one do not.
  const oldConn = olds.connection ?? {};
  const newConn = news.connection ?? {};
  if (isUnknown(newConn) || accountOf(oldConn) !== accountOf(newConn)) replaces.push("connection");
  else if (!deepEqual(oldConn, newConn)) changed.push("connection");
  return {
    changes: changed.length > 0 || replaces.length > 0,
    replaces: [...new Set(replaces)],
    // Every changed input (replacing or not), for a native provider's detailed diff.
    diffs: [...new Set([...changed, ...replaces])],
    deleteBeforeReplace: replaces.length > 0 && (declaration.deleteBeforeReplace?.(olds, news) ?? false),
  };
}
