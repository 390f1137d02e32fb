// A declaration's zod schema as JSON Schema, the form the converter reads. Inputs are read as the
// program writes them (`io: "input"`: before transforms, with defaults optional); records as the
// service answers them. Refinements and transforms have no JSON form and are left out: the
// provider's check applies them.
import { z } from "zod";
import { snakeToCamel } from "../../provider/core/casing";
import type { JsonSchema } from "./jsonSchemaToPulumi";

export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
}

/** A record's schema with its field names as state keeps them (keysToCamel, at every depth). */
export function camelSchema(js: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...js };
  if (js.properties) {
    out.properties = Object.fromEntries(
      Object.entries(js.properties).map(([k, v]) => [snakeToCamel(k), camelSchema(v)]),
    );
  }
  if (js.required) out.required = js.required.map(snakeToCamel);
  if (js.items) out.items = camelSchema(js.items);
  if (typeof js.additionalProperties === "object") out.additionalProperties = camelSchema(js.additionalProperties);
  if (js.anyOf) out.anyOf = js.anyOf.map(camelSchema);
  if (js.oneOf) out.oneOf = js.oneOf.map(camelSchema);
  return out;
}
