// The native plugin's Invoke and Call, without a service: Call stays correctly unneeded (no
// resource of the package has methods, so the engine never sends one), every data function the
// schema declares has a look-up to serve it, and a result's values the schema declares secret
// leave in the wire's secret form.
import { schemaText } from "../../../native/schema/packageSchema";
import { DATA_FUNCTIONS } from "../../../native/schema/functions";
import { secretPathsOf, type PackageSchema } from "../../../native/invoke";
import { LOOKUPS } from "../../../provider/core/lookups";
import { isSecretValue, markSecrets } from "../../../provider/core/secretMarks";

const schema = JSON.parse(schemaText()) as Required<PackageSchema> & {
  resources: Record<string, { methods?: unknown }>;
};

describe("Call", () => {
  it("is unneeded: no resource in the generated schema has methods", () => {
    expect(Object.keys(schema.resources).length).toBeGreaterThan(5);
    const withMethods = Object.entries(schema.resources)
      .filter(([, r]) => r.methods !== undefined)
      .map(([tok]) => tok);
    expect(withMethods).toEqual([]);
  });
});

describe("Invoke", () => {
  it("every data function the schema declares has a look-up, and every look-up is declared", () => {
    expect(Object.keys(schema.functions).sort()).toEqual(DATA_FUNCTIONS.map((f) => `txmail:index:${f.name}`).sort());
    expect(DATA_FUNCTIONS.map((f) => f.name).sort()).toEqual(Object.keys(LOOKUPS).sort());
  });

  it("the package's functions declare no secret result today", () => {
    for (const tok of Object.keys(schema.functions)) expect([tok, secretPathsOf(schema, tok)]).toEqual([tok, []]);
  });

  it("a result's values the schema declares secret, at the top or in an object type, are marked secret", () => {
    const declared: PackageSchema = {
      functions: {
        "txmail:index:lookupThing": {
          outputs: {
            properties: {
              id: { type: "string" },
              token: { type: "string", secret: true },
              auth: { $ref: "#/types/txmail:index:Auth" },
              self: { $ref: "#/types/txmail:index:Loop" },
            },
          },
        },
      },
      types: {
        "txmail:index:Auth": { properties: { user: { type: "string" }, password: { type: "string", secret: true } } },
        "txmail:index:Loop": { properties: { again: { $ref: "#/types/txmail:index:Loop" } } },
      },
    };
    const paths = secretPathsOf(declared, "txmail:index:lookupThing");
    expect(paths).toEqual([["token"], ["auth", "password"]]);
    const out = markSecrets({ id: "1", token: "t0k", auth: { user: "u", password: "pw" }, self: {} }, paths);
    expect(isSecretValue(out.token)).toBe(true);
    expect(isSecretValue((out.auth as Record<string, unknown>).password)).toBe(true);
    expect(out.id).toBe("1");
    expect((out.auth as Record<string, unknown>).user).toBe("u");
  });
});
