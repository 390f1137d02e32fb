// Example records built from a record's JSON Schema, to run a declaration's own `outputsOf` on
// them: what comes out is what state keeps, so the schema's outputs follow the code that makes
// them (a renamed or reshaped field, like a domain's `dnsRecords`, included) instead of a list
// written beside it. Two examples: `full` (every field set) shows every output and its type;
// `minimal` (optional fields absent, nullable ones null) shows which outputs are always set.
import type { JsonSchema } from "./jsonSchemaToPulumi";

export type SampleMode = "full" | "minimal";

const STRING_BY_FORMAT: Record<string, string> = {
  "date-time": "2030-01-01T00:00:00Z",
  uuid: "00000000-0000-4000-8000-000000000000",
  email: "someone@example.com",
  uri: "https://example.com/",
};

export function sampleOf(js: JsonSchema, mode: SampleMode): unknown {
  const variants = js.anyOf ?? js.oneOf;
  const nullable = (Array.isArray(js.type) && js.type.includes("null")) || variants?.some((v) => v.type === "null");
  if (nullable && mode === "minimal") return null;
  if (variants) return sampleOf(variants.find((v) => v.type !== "null") ?? {}, mode);
  if (js.const !== undefined) return js.const;
  if (js.enum) return js.enum[0];
  const type = Array.isArray(js.type) ? js.type.find((t) => t !== "null") : js.type;
  switch (type) {
    case "string":
      return STRING_BY_FORMAT[js.format ?? ""] ?? "text";
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [sampleOf(js.items ?? {}, mode)];
    case "object": {
      const required = new Set(js.required ?? []);
      return Object.fromEntries(
        Object.entries(js.properties ?? {})
          .filter(([k]) => mode === "full" || required.has(k))
          .map(([k, v]) => [k, sampleOf(v, mode)]),
      );
    }
    default:
      return null;
  }
}
