// adopt (`adoptId`): takes over an existing object instead of creating one. Fields that cannot change
// in place must match the program; updatable ones converge to the program's values. The object is
// the one `adoptId` names, found by that id alone (or by the name, for a kind whose name names it),
// never by the program's name: a program naming another is refused by the fixed-field check.
import { deepEqual } from "../canonicalJson";
import type { Props } from "../declaration";
import { holdHere } from "../uncertainCreate";
import { type KindContext, collectionOf, connect } from "./context";
import { byIdAlone, fetchRecord } from "./fetchRecord";
import { withScopeHint } from "./scopeHint";
import { keptSecrets, stateOf, stored, withState } from "./state";
import { updateRemote } from "./update";

export async function adopt(k: KindContext, props: Props): Promise<{ id: string; outs: Props }> {
  const { declaration } = k;
  const { conn, api } = connect(k, props);
  const adoptId = props.adoptId as string;
  const record = await withScopeHint(k, "read", props, () =>
    fetchRecord(k, { conn, api }, byIdAlone(k, props), adoptId),
  );
  if (!record)
    throw new Error(`${declaration.kind}: cannot adopt '${adoptId}': no such object in account ${conn.accountId}.`);
  const live = k.outputsOf(record);
  const unverifiable = new Set<string>(declaration.inputOnly ?? []);
  const mismatched = declaration.replaceOn.filter(
    (f) =>
      declaration.apiFields.includes(f) &&
      !unverifiable.has(f) &&
      props[f] !== undefined &&
      !deepEqual(live[f], props[f]),
  );
  if (mismatched.length > 0) {
    throw new Error(
      `${declaration.kind}: cannot adopt '${adoptId}': ${mismatched.map((f) => `${f} is ${JSON.stringify(live[f])}, the program says ${JSON.stringify(props[f])}`).join("; ")}. ` +
        `These fields cannot change in place; make the program match the existing object or create a new one without adoptId.`,
    );
  }
  // Updatable differences converge to the program's values, as a later update would.
  const adopted = await updateRemote(k, { ...props, ...live }, props, k.idOf(record));
  holdHere(collectionOf(k, conn, props), k.idOf(record));
  // The service shows one-time secrets only at creation: an adopted object's are unknown ("").
  const unknownSecrets = keptSecrets(k, {});
  return {
    id: k.idOf(record),
    outs: stateOf(
      withState({ ...stored(k, props), ...k.outputsOf(adopted.record ?? record), ...unknownSecrets }, adopted.state),
    ),
  };
}
