// The strict public schemas (provider/api/publicShapes.ts) cannot drift from the contract's records
// silently: every field of every contract response is a field of its public schema, the public
// schema holds no field the contract lacks except inside a declared difference, every declared
// difference names a field its contract record has, and a field the derivation cannot carry over
// stops it until it is declared (docs/contract/shapes.md#how-the-public-schema-is-kept-in-step).
import { z } from "zod";
import {
  ENDPOINTS,
  PUBLIC_BLANK_WHEN_UNSET,
  PUBLIC_DIFFERENCES,
  PUBLIC_RESPONSES,
  Domain,
  type EndpointName,
  publicOf,
} from "../../../provider/api";

type Def = { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Every field path of a schema (`data[].scopes[].scope`), through arrays, nullable and optional. */
function fieldPaths(schema: z.ZodType, at = ""): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case "object":
      return Object.entries(def.shape!).flatMap(([k, v]) => {
        const p = at ? `${at}.${k}` : k;
        return [p, ...fieldPaths(v, p)];
      });
    case "array":
      return fieldPaths(def.element!, `${at}[]`);
    case "nullable":
    case "optional":
      return fieldPaths(def.innerType!, at);
    default:
      return [];
  }
}

/** Field paths at which a declared difference replaces the contract's field, for one response. */
function declaredIn(schema: z.ZodType, at = ""): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      const own = Object.keys(PUBLIC_DIFFERENCES.get(schema)?.fields ?? {}).map((k) => (at ? `${at}.${k}` : k));
      return [...own, ...Object.entries(def.shape!).flatMap(([k, v]) => declaredIn(v, at ? `${at}.${k}` : k))];
    }
    case "array":
      return declaredIn(def.element!, `${at}[]`);
    case "nullable":
    case "optional":
      return declaredIn(def.innerType!, at);
    default:
      return [];
  }
}

const names = Object.keys(ENDPOINTS) as EndpointName[];

describe("the public shapes are derived from the contract's records", () => {
  test.each(names)("%s: every field of the contract's answer is in the public schema", (name) => {
    const publicFields = new Set(fieldPaths(PUBLIC_RESPONSES[name]));
    expect(fieldPaths(ENDPOINTS[name].response).filter((f) => !publicFields.has(f))).toEqual([]);
  });

  test.each(names)("%s: the public schema has no other field, except inside a declared difference", (name) => {
    const contractFields = new Set(fieldPaths(ENDPOINTS[name].response));
    const declared = declaredIn(ENDPOINTS[name].response);
    const extra = fieldPaths(PUBLIC_RESPONSES[name]).filter(
      (f) => !contractFields.has(f) && !declared.some((d) => f.startsWith(`${d}[]`) || f.startsWith(`${d}.`)),
    );
    expect(extra).toEqual([]);
  });

  test("every declared difference names a field its contract record has", () => {
    for (const [seed, { name, fields }] of PUBLIC_DIFFERENCES) {
      const own = Object.keys(defOf(seed).shape ?? {});
      expect({ name, missing: Object.keys(fields).filter((f) => !own.includes(f)) }).toEqual({ name, missing: [] });
    }
  });

  test('the fields "" when unset are the declared plain-string differences: a suppression\'s domain and reason', () => {
    expect(PUBLIC_BLANK_WHEN_UNSET).toEqual({ suppression: ["domain", "reason"] });
  });

  test("a field the derivation cannot carry over (a union) stops it, naming the field", () => {
    const record = z.object({ id: z.string(), either: z.union([z.string(), z.number()]) });
    expect(() => publicOf(record, "Thing")).toThrow(/Thing\.either: a union cannot be carried over/);
  });
});

describe("the public schema is strict", () => {
  const domain = {
    object: "domain",
    id: "0f8fad5b-d9cb-469f-a165-70867728950e",
    created_at: "2026-11-23T10:00:00Z",
    updated_at: "2026-11-23T10:00:00Z",
    domain: "mail.example.com",
    account_id: "12345678-1234-4234-8234-123456789abc",
    dns_records: [{ type: "TXT", host: "h", content: "c", required: true, propagated: false }],
    last_dns_check_at: null,
    dns_valid: false,
    tracking_subdomain: null,
    return_path_subdomain: null,
    subscription_subdomain: null,
    media_subdomain: null,
    dkim_rotation_interval_days: null,
    dkim_selector: null,
    dsn_recipient: null,
    rotation_ready: false,
  };
  const PublicDomain = PUBLIC_RESPONSES.getDomain;
  const problems = (body: unknown) => {
    const r = PublicDomain.safeParse(body);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  test("a record as the public description gives it passes, and the contract's schema reads it too", () => {
    expect(problems(domain)).toEqual([]);
    expect(Domain.safeParse(domain).success).toBe(true);
  });

  test.each(Object.keys(domain).filter((k) => (domain as Record<string, unknown>)[k] === null))(
    'an unset %s given as "" fails',
    (field) => {
      const found = problems({ ...domain, [field]: "" });
      expect(found.length).toBeGreaterThan(0);
      expect(found.filter((p) => !p.startsWith(`${field}: `))).toEqual([]);
    },
  );

  test("a missing required property fails, and so does one the description does not name", () => {
    const { dsn_recipient: _gone, ...without } = domain;
    expect(problems(without)).toEqual([expect.stringMatching(/^dsn_recipient: /)]);
    expect(problems({ ...domain, world_verified: true })).toEqual([expect.stringMatching(/Unrecognized key/)]);
  });
});
