// read: the object as the service has it now, with one-time secrets kept from prior state; an object
// deleted out of band is reported gone (so the next `pulumi up` re-creates it).
import type { Props } from "../declaration";
import { type KindContext, connect } from "./context";
import { fetchRecord } from "./fetchRecord";
import { withScopeHint } from "./scopeHint";
import { keptSecrets, stateOf } from "./state";

export async function read(k: KindContext, id: string, props: Props = {}): Promise<{ id?: string; props?: Props }> {
  const ctx = connect(k, props);
  const record = await withScopeHint(k, "read", props, () => fetchRecord(k, ctx, props, id));
  if (!record) return { id: "" }; // deleted out of band: gone from state, re-created by the next up
  return { id, props: stateOf({ ...props, ...k.outputsOf(record), ...keptSecrets(k, props) }) };
}
