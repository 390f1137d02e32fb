// A 409 on create. After a retried failure on a service that keeps names unique (domains), the
// object is the one our failed attempt made: take it. On key creation it means the idempotent
// replay of the secret expired (5 minutes): an earlier run created the key and never recorded it.
import { isConflict, wasRetried } from "../api";
import type { Ctx, Props } from "../declaration";
import { createdSince } from "../uncertainCreate";
import type { KindContext } from "./context";
import { finishCreate } from "./finishCreate";
import { nameOf, what } from "./names";
import { twinsOf } from "./twins";

/** The object to record, "next-key" when a fresh idempotency key is safe, or undefined: not ours to resolve. */
export async function recoverConflict(
  k: KindContext,
  err: unknown,
  ctx: Ctx,
  props: Props,
  collection: string,
  started: number,
): Promise<{ id: string; outs: Props } | "next-key" | undefined> {
  const { declaration } = k;
  if (!isConflict(err)) return undefined;
  if (declaration.uniqueName) {
    const record = await (
      declaration.findExisting
        ? declaration.findExisting(ctx, props)
        : ctx.api.get(declaration.itemPath(ctx.conn, props, ""), declaration.record)
    ).catch(() => undefined);
    if (record && wasRetried(err) && createdSince(record.created_at, started)) {
      return finishCreate(k, ctx, props, collection, k.idOf(record), record);
    }
    // Made before this create started (or not by a retry of ours): someone else's, never taken.
    const made = typeof record?.created_at === "string" ? ` (created ${record.created_at})` : "";
    throw new Error(
      `${what(declaration.kind, props)}: already exists in account ${ctx.conn.accountId}${made} and was not created by this ` +
        `create, so the provider does not take it over. If it is yours to manage, add \`adoptId: ` +
        `"${declaration.findExisting ? (record ? k.idOf(record) : "<its id>") : (nameOf(props) ?? "")}"\` to the resource; otherwise choose another name. ` +
        `(Service message: ${(err as Error).message})`,
    );
  }
  if (Object.keys(declaration.createOnly ?? {}).length === 0) return undefined;
  const orphans = await twinsOf(k, ctx, props, collection, Date.now() - 24 * 3600_000);
  if (orphans.length === 0) return "next-key"; // the orphan was deleted: a fresh key is safe
  const ids = orphans.map((o) => k.idOf(o)).join(", ");
  throw new Error(
    `${what(declaration.kind, props)}: an earlier run created this ${declaration.kind} (${ids}) but did not finish recording it, and the ` +
      `service no longer replays its secret (it does so for 5 minutes only), so nobody holds that secret. ` +
      `Delete ${orphans.length === 1 ? "that key" : "those keys"} (for example in the dashboard, or with ` +
      `\`adoptId: "${k.idOf(orphans[0]!)}"\` followed by \`pulumi destroy --target\`), then run \`pulumi up\` again: ` +
      `the provider then creates a new key. (Service message: ${(err as Error).message})`,
  );
}
