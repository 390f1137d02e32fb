// provider/api/unset.ts: "" and absent in a nullable field of a record read as null, at any depth;
// nothing else moves.
import { z } from "zod";
import { ApiKey, Domain, ListOf, Suppression, unsetAsNull } from "../../../provider/api";

describe("unsetAsNull", () => {
  it('reads "" as null in nullable fields of records in a list envelope', () => {
    const page = {
      object: "list",
      data: [{ object: "suppression", email: "a@example.com", domain: "", reason: "", note: "" }],
      pagination: { has_more: false, next_cursor: "" },
    };
    expect(unsetAsNull(ListOf(Suppression), page)).toEqual({
      object: "list",
      data: [{ object: "suppression", email: "a@example.com", domain: null, reason: null, note: "" }],
      pagination: { has_more: false, next_cursor: null },
    });
  });

  it('keeps "" in fields that are not nullable, and non-blank values everywhere', () => {
    const schema = z.object({ name: z.string(), tag: z.string().nullable(), n: z.number().nullable().optional() });
    expect(unsetAsNull(schema, { name: "", tag: "x", n: "" })).toEqual({ name: "", tag: "x", n: null });
    const domain = unsetAsNull(Domain, { dns_records: [{ label: "" }], dkim_selector: "" }) as Record<string, unknown>;
    expect(domain).toMatchObject({ dns_records: [{ label: "" }], dkim_selector: null });
  });

  it("reads an absent nullable field as null, and leaves an absent optional one absent", () => {
    const schema = z.object({ at: z.string().nullable(), cursor: z.string().nullish(), name: z.string() });
    expect(unsetAsNull(schema, {})).toEqual({ at: null });
    expect(unsetAsNull(ListOf(Suppression), { data: [{ email: "a@example.com" }], pagination: {} })).toEqual({
      data: [{ email: "a@example.com", domain: null, reason: null }],
      pagination: {},
    });
  });

  it('a key never used parses alike with last_used_at null, "" or absent', () => {
    const key = {
      object: "api_key",
      id: "0f8fad5b-d9cb-469f-a165-70867728950e",
      created_at: "2026-11-23T10:00:00Z",
      updated_at: "2026-11-23T10:00:00Z",
      last_used_at: null,
      account_id: "12345678-1234-4234-8234-123456789abc",
      label: "ci",
      public_key: "txm-pk-x",
      scopes: ["domains:read"],
      ip_allow_list: [],
    };
    const { last_used_at: _unset, ...absent } = key;
    const read = (body: unknown) => ApiKey.parse(unsetAsNull(ApiKey, body));
    expect(read({ ...key, last_used_at: "" })).toEqual(read(key));
    expect(read(absent)).toEqual(read(key));
    expect(read(key).last_used_at).toBeNull();
  });

  it("leaves what is not an object of the schema as it is", () => {
    expect(unsetAsNull(Suppression, "")).toBe("");
    expect(unsetAsNull(Suppression, null)).toBe(null);
    expect(unsetAsNull(ListOf(Suppression), { data: "x" })).toEqual({ data: "x" });
  });
});
