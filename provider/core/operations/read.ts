// read: the object as the service has it now, with one-time secrets kept from prior state; an object
// deleted out of band — or gone with another in its place under the same name (fetchRecord.ts) — is
// reported gone (so the next `pulumi up` re-creates it, or names the other object and how to adopt it).
import type { Props } from "../declaration";
import { progress } from "../progress";
import { type KindContext, connect } from "./context";
import { createdOf, identify } from "./fetchRecord";
import { what } from "./names";
import { withScopeHint } from "./scopeHint";
import { keptSecrets, stateOf } from "./state";

export async function read(k: KindContext, id: string, props: Props = {}): Promise<{ id?: string; props?: Props }> {
  const ctx = connect(k, props);
  const found = await withScopeHint(k, "read", props, () => identify(k, ctx, props, id));
  if (found.kind === "another") {
    progress(
      `${what(k.declaration, props, id)}: gone; another ${k.declaration.kind} is in its place (${found.id}` +
        `${createdOf(found.record)}), which this stack did not make: it is not read as this one.`,
      props.__urn,
    );
  }
  if (found.kind !== "this") return { id: "" }; // gone: dropped from state, re-created by the next up
  // `found.id`: a state that named the object by its name (a domain imported by name) gets its id.
  return { id: found.id, props: stateOf({ ...props, ...k.outputsOf(found.record), ...keptSecrets(k, props) }) };
}
