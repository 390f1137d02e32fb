// One object by id, as the service has it now.
import { isNotFound } from "../api";
import type { Ctx, Props } from "../declaration";
import type { KindContext } from "./context";

/** The record, or undefined when it does not exist (the declaration's own read, else GET itemPath). */
export async function fetchRecord(
  k: KindContext,
  ctx: Ctx,
  props: Props,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  if (k.declaration.fetch) return k.declaration.fetch(ctx, props, id);
  try {
    return await ctx.api.get(k.declaration.itemPath(ctx.conn, props, id), k.declaration.record);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
