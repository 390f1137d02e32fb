// provider/api/unset.ts: "" in a nullable field of a record reads as null, at any depth; nothing else moves.
import { z } from "zod";
import { Domain, ListOf, Suppression, blankAsUnset } from "../../../provider/api";

describe("blankAsUnset", () => {
  it('reads "" as null in nullable fields of records in a list envelope', () => {
    const page = {
      object: "list",
      data: [{ object: "suppression", email: "a@example.com", domain: "", reason: "", note: "" }],
      pagination: { has_more: false, next_cursor: "" },
    };
    expect(blankAsUnset(ListOf(Suppression), page)).toEqual({
      object: "list",
      data: [{ object: "suppression", email: "a@example.com", domain: null, reason: null, note: "" }],
      pagination: { has_more: false, next_cursor: null },
    });
  });

  it('keeps "" in fields that are not nullable, and non-blank values everywhere', () => {
    const schema = z.object({ name: z.string(), tag: z.string().nullable(), n: z.number().nullable().optional() });
    expect(blankAsUnset(schema, { name: "", tag: "x", n: "" })).toEqual({ name: "", tag: "x", n: null });
    expect(blankAsUnset(Domain, { dns_records: [{ label: "" }], dkim_selector: "" })).toEqual({
      dns_records: [{ label: "" }],
      dkim_selector: null,
    });
  });

  it("leaves what is not an object of the schema as it is", () => {
    expect(blankAsUnset(Suppression, "")).toBe("");
    expect(blankAsUnset(Suppression, null)).toBe(null);
    expect(blankAsUnset(ListOf(Suppression), { data: "x" })).toEqual({ data: "x" });
  });
});
