// One declaration (provider/resources/*.ts) → the resource in the package schema.
import type { z } from "zod";
import type { AnyDeclaration } from "../../provider/core/declaration";
import { commonInputs } from "./common";
import { Converter } from "./jsonSchemaToPulumi";
import { serviceOutputs } from "./outputs";
import type { PropertySpec, SchemaResource } from "./pulumiSchema";
import type { TypeRegistry } from "./typeRegistry";
import { jsonSchemaOf } from "./zodJson";

/**
 * Inputs whose change replaces the object, as the generic provider's diff decides: the declared
 * triggers, or every input the service receives or the provider keeps when the kind has no update.
 */
export function replaceTriggers(declaration: AnyDeclaration): string[] {
  // A rotating input (core/rotating) replaces only in its legacy string form, which the provider's
  // diff says itself on both faces; marked here, the generated SDKs would add it to every resource's
  // `replaceOnChanges`, and the engine would replace the credential on a schedule's due rotation.
  const rotating = declaration.rotating?.input;
  if (!declaration.immutable) return declaration.replaceOn.filter((f) => f !== rotating);
  const local = declaration.replaceOn.filter((f) => !declaration.apiFields.includes(f) && f !== rotating);
  return [...new Set([...declaration.apiFields, ...local, ...(declaration.stateFields ?? [])])];
}

export function resourceSchema(declaration: AnyDeclaration, registry: TypeRegistry): SchemaResource {
  const writeOnly = [...(declaration.writeOnly ?? [])];
  const convert = new Converter(registry, {}, { [declaration.kind]: writeOnly });
  const inputSchema = jsonSchemaOf(declaration.inputs as z.ZodType, "input");
  const own = convert.object(inputSchema, declaration.kind);
  const triggers = new Set(replaceTriggers(declaration));
  const inputs: Record<string, PropertySpec> = {};
  for (const [name, prop] of Object.entries(own.properties)) {
    inputs[name] = triggers.has(name) ? { ...prop, replaceOnChanges: true } : prop;
  }
  const common = commonInputs(registry);

  const service = serviceOutputs(declaration, convert);
  // State keeps the canonical inputs (defaults applied) besides the service's outputs; an input's
  // own type and description win over the record field it is sent as. Write-only inputs are kept
  // only as a digest, which is nobody's business: not an output.
  const inputOutputs = Object.fromEntries(
    Object.entries(inputs)
      .filter(([name]) => !writeOnly.includes(name))
      .map(([name, { default: _default, ...prop }]) => [name, prop]),
  );
  const properties = sortKeys({ ...service.properties, ...inputOutputs, ...common });
  // Always set: what every record yields, required inputs, and inputs with a default (check
  // applies it, even one Pulumi cannot express, such as an empty list).
  const defaulted = Object.entries(inputSchema.properties ?? {}).filter(([, p]) => p.default !== undefined);
  const alwaysSet = new Set([...service.required, ...(own.required ?? []), ...defaulted.map(([name]) => name)]);
  const required = Object.keys(properties).filter((name) => alwaysSet.has(name) && !writeOnly.includes(name));

  return {
    ...(declaration.description ? { description: declaration.description } : {}),
    inputProperties: sortKeys({ ...inputs, ...common }),
    ...(own.required ? { requiredInputs: own.required } : {}),
    properties,
    required,
  };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
