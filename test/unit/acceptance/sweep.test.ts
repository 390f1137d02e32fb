// The sweep's order and scopes come from the list of kinds and the declarations: every kind is
// deleted once, after everything it holds, and the sweeper's key asks only for scopes the service has.
// Kinds that watch another (DomainVerification) make no object: nothing to sweep.
import { OBJECT_KINDS as KINDS } from "../../../provider/api/kinds";
import { parseScope } from "../../../provider/api/scopes";
import { DELETION_ORDER, SWEEPER_SCOPES, parentsOf } from "../../../acceptance/sweep";

describe("the sweep's deletion order", () => {
  it("holds every kind of the list once", () => {
    expect([...DELETION_ORDER].sort()).toEqual([...KINDS].sort());
  });

  it("deletes each kind before the kinds that hold it", () => {
    const late = DELETION_ORDER.flatMap((kind, at) =>
      parentsOf(kind)
        .filter((parent) => DELETION_ORDER.indexOf(parent) < at)
        .map((parent) => `${kind} after its parent ${parent}`),
    );
    expect(late).toEqual([]);
  });

  it("empties a sub account of what its keys manage before its keys, and the keys before it", () => {
    const at = (kind: string) => DELETION_ORDER.indexOf(kind as never);
    expect(at("Domain")).toBeLessThan(at("SubAccountApiKey"));
    expect(at("SubAccountApiKey")).toBeLessThan(at("SubAccount"));
  });
});

describe("the sweeper's key", () => {
  it("asks only for scopes of the service, to read and delete", () => {
    expect(SWEEPER_SCOPES.filter((s) => !parseScope(s))).toEqual([]);
    // `remove` is how the service spells deleting a member.
    const verbs = new Set(SWEEPER_SCOPES.map((s) => parseScope(s)!.verb));
    expect([...verbs].sort()).toEqual(["delete", "read", "remove"]);
  });
});
