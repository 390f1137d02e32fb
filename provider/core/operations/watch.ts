// create, for a kind that makes no object at the service (provider/api/kinds.ts `watches`): the
// watched object must exist — read with the resource's own connection, so a name from another
// account is not found — and the declaration's reconcile does the work (a DomainVerification
// waits for DNS). Nothing is sent that creates or changes anything, so no idempotency key is needed.
import { isNotFound } from "../api";
import type { Props } from "../declaration";
import { type KindContext, collectionOf, connect } from "./context";
import { finishCreate } from "./finishCreate";
import { withScopeHint } from "./scopeHint";

export async function watch(k: KindContext, inputs: Props): Promise<{ id: string; outs: Props }> {
  const { declaration } = k;
  const ctx = connect(k, inputs);
  const path = declaration.itemPath(ctx.conn, inputs, "");
  const record = await withScopeHint(k, "read", inputs, () => ctx.api.get(path, declaration.record)).catch((err) => {
    if (!isNotFound(err)) throw err;
    throw new Error(
      `${declaration.kind}: ${watchedName(inputs)} is not a domain of account ${ctx.conn.accountId} (the ` +
        `account of this resource's key). Name a domain that exists — a Domain resource's \`domain\` output — ` +
        `and give this resource the same connection as that Domain (a tenant's domain needs the tenant's key). ` +
        `Nothing was changed.`,
      { cause: err },
    );
  });
  return finishCreate(k, ctx, inputs, collectionOf(k, ctx.conn, inputs), k.idOf(record), record);
}

const watchedName = (inputs: Props) => `domain ${JSON.stringify(String(inputs.domain ?? ""))}`;
