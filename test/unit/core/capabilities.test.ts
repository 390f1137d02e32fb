// The capabilities the declarations opt into agree with the kind facts the lower layers read
// (provider/api/kinds.ts): a kind that watches another makes no object for the emulator, the policy
// pack and the import plan, and its declaration must then bring the watcher's operations.
import { KINDS, KIND_FACTS, type KindFacts } from "../../../provider/api/kinds";
import { declarations } from "../../../provider/resources";

describe("capabilities", () => {
  it.each(KINDS)("%s declares `watches` exactly when its facts say it watches a kind", (kind) => {
    const facts = KIND_FACTS[kind] as KindFacts;
    expect(declarations[kind]!.watches !== undefined).toBe(facts.watches !== undefined);
  });

  it.each(KINDS.filter((kind) => (KIND_FACTS[kind] as KindFacts).watches !== undefined))(
    "%s, a watcher, is never listed by the import plan",
    (kind) => expect(declarations[kind]!.listing.listed).toBe(false),
  );
});
