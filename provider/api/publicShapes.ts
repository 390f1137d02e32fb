// The service's public description of each response, as a STRICT schema (docs/contract/shapes.md):
// what the emulator answers with `--shapes public`, held exactly — every property the description
// requires present, none it does not name, `null` (never "") for an unset nullable value, the types
// and formats it names.
//
// Kept from drifting: the public schemas are not written out beside the contract's records, they are
// DERIVED from them (the endpoint table's response schemas) at load. Every field of a contract record
// becomes a required field of the strict public record with the same type and format, a nullable one
// refusing "". Only where the public description says something else is a field declared here, one
// by one with the reason (PUBLIC_DIFFERENCES), and a field the derivation cannot carry over (a union,
// a transform) stops the derivation until it is declared. test/unit/api/publicShapes.test.ts checks
// that every field of every contract record is in its public schema, and that every declared
// difference names a field the contract record has.
import { z } from "zod";
import { Pagination, Timestamp, Uuid } from "./common";
import { ApiKey, ApiKeyWithSecret } from "./apiKey";
import { Suppression } from "./suppression";
import { ENDPOINTS, type EndpointName, type EndpointSpec, endpointOf } from "./endpoints";

/**
 * An API-key scope as the public description gives it: an object per scope. `domain_id` is the
 * domain's id for a `{domain}` scope, null for a scope over every domain.
 */
export const PublicScope = z.strictObject({
  id: Uuid,
  created_at: Timestamp,
  updated_at: Timestamp,
  api_key_id: Uuid,
  scope: z.string().min(1),
  domain_id: Uuid.nullable(),
});
export type PublicScope = z.infer<typeof PublicScope>;

/** One field where the public description and the contract disagree: its public schema, and why. */
export interface PublicDifference {
  schema: z.ZodType;
  /** What the public description says (for docs/contract/shapes.md and a failing test's message). */
  why: string;
  /** How the public shape says "unset" where the contract says null: "" for a plain string. */
  unset?: "";
}

type FieldsOf<S> = S extends z.ZodObject<infer Shape> ? keyof Shape & string : never;
type Differences<S> = Partial<Record<FieldsOf<S>, PublicDifference>>;

const apiKeyScopes: PublicDifference = {
  schema: z.array(PublicScope),
  why: "objects with `id`, `created_at`, `updated_at`, `api_key_id`, `scope` and `domain_id` (the contract: scope strings)",
};
/** The suppression fields the public description types as plain strings: unset is "" there, not null. */
const plainString = (field: string): PublicDifference => ({
  schema: z.string(),
  why: `a plain string, not nullable: an unset \`${field}\` is "" (the contract: null)`,
  unset: "",
});
/** A cursor the public description types as a string: absent when there is none, never null. */
const cursor = (field: string): PublicDifference => ({
  schema: z.string().min(1).optional(),
  why: `a string, not nullable: \`${field}\` is absent when there is no such page (the contract also reads null)`,
});

/**
 * Each contract record whose public shape differs, with its differing fields; every other field of
 * every record is carried over as it is (see `publicOf`).
 */
export const PUBLIC_DIFFERENCES = new Map<z.ZodType, { name: string; fields: Record<string, PublicDifference> }>([
  [ApiKey, { name: "ApiKey", fields: { scopes: apiKeyScopes } satisfies Differences<typeof ApiKey> }],
  [
    ApiKeyWithSecret,
    { name: "ApiKeyWithSecret", fields: { scopes: apiKeyScopes } satisfies Differences<typeof ApiKeyWithSecret> },
  ],
  [
    Suppression,
    {
      name: "Suppression",
      fields: { domain: plainString("domain"), reason: plainString("reason") } satisfies Differences<
        typeof Suppression
      >,
    },
  ],
  [
    Pagination,
    {
      name: "Pagination",
      fields: {
        next_cursor: cursor("next_cursor"),
        previous_cursor: cursor("previous_cursor"),
      } satisfies Differences<typeof Pagination>,
    },
  ],
]);

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
};
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** "" is not how the public description says "unset": a nullable string is null or not empty. */
const notBlank = (schema: z.ZodType): z.ZodType =>
  defOf(schema).type === "string"
    ? schema.refine((v) => v !== "", { message: 'an unset value is null, not ""' })
    : schema;

/**
 * By a record's `object` value, its fields that are "" when unset in the public shapes (the
 * emulator's public mode writes them so): the declared differences with `unset: ""`.
 */
export const PUBLIC_BLANK_WHEN_UNSET: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  [...PUBLIC_DIFFERENCES].flatMap(([seed, { fields }]) => {
    const objectField = defOf(seed).shape?.object;
    const object = objectField && (defOf(objectField) as { values?: unknown[] }).values?.[0];
    const blank = Object.entries(fields).flatMap(([field, d]) => (d.unset === "" ? [field] : []));
    return typeof object === "string" && blank.length > 0 ? [[object, blank]] : [];
  }),
);

const derived = new Map<z.ZodType, z.ZodType>();

/**
 * The strict public schema of a contract response schema: objects strict (every field required as
 * the contract declares it, no other field), nullable values `null` or a non-empty value, arrays and
 * optional fields as in the contract, the declared differences applied. Throws on a schema it cannot
 * carry over (a union, a transform): such a field needs a declared difference.
 */
export function publicOf(schema: z.ZodType, where = "response"): z.ZodType {
  const known = derived.get(schema);
  if (known) return known;
  const def = defOf(schema);
  let out: z.ZodType;
  switch (def.type) {
    case "object": {
      const differences = PUBLIC_DIFFERENCES.get(schema)?.fields ?? {};
      const shape: Record<string, z.ZodType> = {};
      for (const [key, field] of Object.entries(def.shape!)) {
        shape[key] = differences[key]?.schema ?? publicOf(field, `${where}.${key}`);
      }
      out = z.strictObject(shape);
      break;
    }
    case "array":
      out = z.array(publicOf(def.element!, `${where}[]`));
      break;
    case "nullable":
      out = notBlank(publicOf(def.innerType!, where)).nullable();
      break;
    case "optional":
      out = publicOf(def.innerType!, where).optional();
      break;
    case "string":
    case "number":
    case "boolean":
    case "literal":
    case "enum":
      out = schema; // the contract's own type and format
      break;
    default:
      throw new Error(`${where}: a ${def.type} cannot be carried over to the public shapes; declare its difference`);
  }
  derived.set(schema, out);
  return out;
}

/** Every endpoint's 2xx body in the public shapes, by endpoint name. */
export const PUBLIC_RESPONSES = Object.fromEntries(
  Object.entries(ENDPOINTS).map(([name, e]) => [name, publicOf(e.response, name)]),
) as Record<EndpointName, z.ZodType>;

const byEndpoint = new Map<EndpointSpec, z.ZodType>(
  Object.entries(ENDPOINTS).map(([name, e]) => [e, PUBLIC_RESPONSES[name as EndpointName]]),
);

/** The v2 error body in the public description: exactly `{message}`. */
export const PublicErrorBody = z.strictObject({ message: z.string() });

/** The strict public schema of the answer to `method path` with `status`, or undefined for a path no endpoint has. */
export function publicResponseFor(method: string, path: string, status: number): z.ZodType | undefined {
  if (status >= 400) return PublicErrorBody;
  const endpoint = endpointOf(method, path);
  return endpoint && byEndpoint.get(endpoint);
}
