// The operations of a kind that declares the `watches` capability (declaration.ts Watches): it makes
// no object at the service, so the factory gives it these in place of the generic create, delete and
// check's common-input rules. The watched object must exist — read with the resource's own
// connection, so a name from another account is not found — and the declaration's reconcile does the
// work (a DomainVerification waits for DNS). Nothing is sent that creates or changes anything, so no
// idempotency key is needed.
import { isNotFound } from "../api";
import type { Props, Watches } from "../declaration";
import type { CheckFailure, CommonRefusals } from "./check";
import { type KindContext, collectionOf, connect } from "./context";
import { finishCreate } from "./create";
import { withScopeHint } from "./scopeHint";

/**
 * What a capability may bring in place of the generic operations: its create and delete, and rules
 * for the inputs every kind takes (check). Delete sends nothing: it made nothing at the service.
 */
export interface OwnOperations {
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
  refusals?: CommonRefusals;
}

/** The operations the capability brings, for the factory to use in place of the generic ones. */
export function watching(k: KindContext, watches: Watches): OwnOperations {
  return { create: (inputs) => watchCreate(k, watches, inputs), delete: async () => {}, refusals: refuseAdoption };
}

/** Create: the watched object, read, then reconciled as any create's object is. */
async function watchCreate(k: KindContext, watches: Watches, inputs: Props): Promise<{ id: string; outs: Props }> {
  const { declaration } = k;
  const ctx = connect(k, inputs);
  const path = declaration.itemPath(ctx.conn, inputs, "");
  const record = await withScopeHint(k, "read", inputs, () => ctx.api.get(path, declaration.record)).catch((err) => {
    if (!isNotFound(err)) throw err;
    throw new Error(`${declaration.kind}: ${watches.missing(inputs, ctx.conn.accountId)} Nothing was changed.`, {
      cause: err,
    });
  });
  return finishCreate(k, ctx, inputs, collectionOf(k, ctx.conn, inputs), k.idOf(record), record);
}

/** Check: `adoptId` names an object to take over, and such a kind takes over none. */
function refuseAdoption(k: KindContext, news: Props): CheckFailure[] {
  if (news.adoptId === undefined) return [];
  return [
    {
      property: "adoptId",
      reason: `adoptId: a ${k.declaration.kind} makes no object at the service: there is nothing to adopt`,
    },
  ];
}
