// Blank reads as unset. The service's public description types several optional fields as plain
// strings, and the service may answer "" where this contract (and the emulator) answer null: a
// suppression for every domain, a suppression without a reason, a key never used. Read "" as null in
// every field a record declares nullable, once, before parsing, so no kind sees the difference — a
// replace-on-any-change kind (Suppression, AccountMember) would otherwise replace on every run.
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

/** `body` with "" replaced by null wherever `schema` declares a nullable field; everything else as it was. */
export function blankAsUnset(schema: z.ZodType, body: unknown): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
      const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
      for (const [key, field] of Object.entries(def.shape!)) {
        if (!(key in out)) continue;
        out[key] = out[key] === "" && unsettable(field) ? null : blankAsUnset(field, out[key]);
      }
      return out;
    }
    case "array":
      return Array.isArray(body) ? body.map((item) => blankAsUnset(def.element!, item)) : body;
    case "nullable":
    case "optional":
    case "readonly":
    case "default":
      return blankAsUnset(def.innerType!, body);
    case "pipe":
      return blankAsUnset(def.in!, body);
    default:
      return body;
  }
}
