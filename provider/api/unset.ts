// Every way of saying "unset" reads as null. The contract answers null for an unset field; the
// public description types a few as plain strings ("" when unset: a suppression's `domain` and
// `reason`, docs/contract/shapes.md), the service has been seen answering "" for others, and a
// server that leaves an unset field out says the same thing. Read "" and absent as null in every
// field a record declares nullable, once, before parsing, so no kind sees the difference — a
// replace-on-any-change kind (Suppression, AccountMember) would otherwise replace on every run.
// Tolerant in, exact out: what the provider sends and stores is the contract's null.
import type { z } from "zod";

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
};
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Whether a field of a record may be unset: declared `.nullable()` (or `.nullish()`). */
function unsettable(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === "nullable") return true;
  if (def.type === "optional" || def.type === "readonly" || def.type === "default") return unsettable(def.innerType!);
  return false;
}

/** Whether a field is nullable and required: absent, it reads as null (a `.nullish()` one may stay absent). */
const requiredNullable = (schema: z.ZodType): boolean => defOf(schema).type === "nullable";

/**
 * `body` with "" and absent replaced by null wherever `schema` declares a nullable field (absent only
 * where the field is not also optional); everything else as it was.
 */
export function unsetAsNull(schema: z.ZodType, body: unknown): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
      const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
      for (const [key, field] of Object.entries(def.shape!)) {
        if (!(key in out)) {
          if (requiredNullable(field)) out[key] = null;
          continue;
        }
        out[key] = out[key] === "" && unsettable(field) ? null : unsetAsNull(field, out[key]);
      }
      return out;
    }
    case "array":
      return Array.isArray(body) ? body.map((item) => unsetAsNull(def.element!, item)) : body;
    case "nullable":
    case "optional":
    case "readonly":
    case "default":
      return unsetAsNull(def.innerType!, body);
    case "pipe":
      return unsetAsNull(def.in!, body);
    default:
      return body;
  }
}
