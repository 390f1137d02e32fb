// A resource's outputs as state keeps them, found by running the declaration's own code on
// example records (sample.ts) rather than listed by hand.
import type { z } from "zod";
import { deepEqual } from "../../provider/core/canonicalJson";
import { recordOutputs } from "../../provider/core/operations/context";
import { stateOf } from "../../provider/core/operations/state";
import type { AnyDeclaration } from "../../provider/core/declaration";
import { rotationOutputTypes, rotationSecretOutputs } from "../../provider/core/rotating/outputs";
import type { Converter, JsonSchema } from "./jsonSchemaToPulumi";
import type { PropertySpec } from "./pulumiSchema";
import { sampleOf } from "./sample";
import { camelSchema, jsonSchemaOf } from "./zodJson";

/**
 * What the generic provider stores of a record — the same two steps its operations take
 * (`recordOutputs`, then `stateOf`) — plus the one-time secrets of the creation response under
 * their output names.
 */
export function storedOutputs(declaration: AnyDeclaration, record: Record<string, unknown>): Record<string, unknown> {
  const kept = stateOf(recordOutputs(declaration, record));
  for (const output of Object.keys(declaration.createOnly ?? {})) kept[output] = "one-time secret";
  return kept;
}

export interface Outputs {
  properties: Record<string, PropertySpec>;
  /** Outputs every state holds (set and not null). */
  required: string[];
}

/** The outputs of a kind that come from the service (not its inputs): types, secrets, which are always set. */
export function serviceOutputs(declaration: AnyDeclaration, convert: Converter): Outputs {
  const recordSchema = jsonSchemaOf(declaration.record, "output");
  const camel = camelSchema(recordSchema);
  const full = storedOutputs(declaration, sampleOf(recordSchema, "full") as Record<string, unknown>);
  const minimal = storedOutputs(declaration, sampleOf(recordSchema, "minimal") as Record<string, unknown>);
  const createdSchema = jsonSchemaOf(declaration.created, "output");
  const properties: Record<string, PropertySpec> = {};
  for (const [name, value] of Object.entries(full)) {
    const createdField = declaration.createOnly?.[name];
    if (createdField !== undefined) {
      properties[name] = oneTimeSecret(createdSchema.properties?.[createdField]?.description);
      continue;
    }
    const declared = declaration.reshapedOutputs?.[name];
    const shape = declared
      ? declaredShape(declaration.kind, name, declared, value)
      : shapeOf(value, minimal[name], camel.properties?.[name]);
    properties[name] = convert.property(shape, { owner: declaration.kind, field: name });
  }
  // A rotation schedule's outputs (provider/core/rotating): unset without one, so never required.
  const secrets = new Set(rotationSecretOutputs(declaration));
  for (const [name, type] of Object.entries(rotationOutputTypes(declaration))) {
    const spec = convert.property(jsonSchemaOf(type, "output"), { owner: declaration.kind, field: name });
    properties[name] = secrets.has(name) ? { ...spec, secret: true } : spec;
  }
  const required = Object.keys(full).filter((k) => minimal[k] !== undefined && minimal[k] !== null);
  return { properties, required };
}

/** A reshaped output's declared schema (`reshapedOutputs`), once its example value shows it is what `outputsOf` makes. */
function declaredShape(kind: string, name: string, declared: z.ZodType, value: unknown): JsonSchema {
  const js = jsonSchemaOf(declared, "output");
  if (!deepEqual(value, sampleOf(js, "full"))) {
    throw new Error(
      `schema: ${kind}.reshapedOutputs.${name} does not match what outputsOf makes of a record: ` +
        `declared ${JSON.stringify(sampleOf(js, "full"))}, made ${JSON.stringify(value)}`,
    );
  }
  return js;
}

function oneTimeSecret(description: string | undefined): PropertySpec {
  const note =
    "Returned once, when the object is created, and kept as a Pulumi secret; empty for an adopted or " +
    "imported object (the service never shows it again: rotate to get one under management).";
  return { type: "string", secret: true, description: description ? `${description} ${note}` : note };
}

/**
 * The JSON Schema of one output value: the record field's own schema when the output is that field
 * unchanged (same name, same example value), else what the example values show (a reshaped field).
 */
function shapeOf(full: unknown, minimal: unknown, field: JsonSchema | undefined): JsonSchema {
  if (field && deepEqual(full, sampleOf(field, "full"))) return field;
  if (Array.isArray(full)) {
    return { type: "array", items: shapeOf(full[0], Array.isArray(minimal) ? minimal[0] : undefined, field?.items) };
  }
  if (full !== null && typeof full === "object") {
    const min = (minimal ?? {}) as Record<string, unknown>;
    const entries = Object.entries(full as Record<string, unknown>);
    return {
      type: "object",
      properties: Object.fromEntries(entries.map(([k, v]) => [k, shapeOf(v, min[k], field?.properties?.[k])])),
      required: entries.map(([k]) => k).filter((k) => min[k] !== undefined && min[k] !== null),
    };
  }
  if (typeof full === "number") return { type: Number.isInteger(full) ? "integer" : "number" };
  if (typeof full === "string" || typeof full === "boolean") return { type: typeof full };
  return {};
}
