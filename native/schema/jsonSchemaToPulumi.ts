// JSON Schema (what zod's toJSONSchema makes of a declaration) → Pulumi property specs.
//
// Pulumi types are fewer than JSON Schema's: no null (a nullable field is its non-null type, not
// required), no inline objects (an object with properties becomes a named type: its `meta({ id })`
// if the zod schema has one, else its owner's name and the field's), enums are named types (named
// after the field, shared by every declaration with the same values), and validation rules
// (patterns, lengths, ranges) stay in the provider's check, which names the field and the rule.
import { ENUM_DOCS, type EnumDocs } from "../../provider/api/common";
import type { ObjectTypeSpec, PropertySpec, TypeSpec } from "./pulumiSchema";
import { ANY_REF, pascal, singular } from "./tokens";
import type { TypeRegistry } from "./typeRegistry";

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  default?: unknown;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  id?: string;
  format?: string;
  /** The documentation of an enum declared with `documentedEnum` (provider/api/common.ts). */
  [ENUM_DOCS]?: EnumDocs;
}

/** Where a schema sits: the named types it may need are called after its owner and field. */
export interface Place {
  owner: string;
  field: string;
}

export class Converter {
  /**
   * @param defs the definitions `$ref`s point to (zod schemas with a `meta({ id })`)
   * @param secrets fields that hold secrets, by owner (a resource kind or a type name)
   */
  constructor(
    private readonly registry: TypeRegistry,
    private readonly defs: Record<string, JsonSchema> = {},
    private readonly secrets: Record<string, readonly string[]> = {},
  ) {}

  /** A property: its type plus description and (primitive) default. */
  property(js: JsonSchema, place: Place): PropertySpec {
    const resolved = this.resolve(js);
    const spec: PropertySpec = { ...this.type(js, place) };
    const description = js.description ?? resolved.description;
    if (description) spec.description = description;
    const dflt = js.default ?? resolved.default;
    if (typeof dflt === "string" || typeof dflt === "number" || typeof dflt === "boolean") spec.default = dflt;
    if (this.secrets[place.owner]?.includes(place.field)) spec.secret = true;
    return spec;
  }

  /** The properties and required names of an object schema. */
  object(js: JsonSchema, owner: string): Pick<ObjectTypeSpec, "properties" | "required"> {
    const resolved = this.resolve(js);
    const properties = Object.fromEntries(
      Object.entries(resolved.properties ?? {}).map(([name, p]) => [name, this.property(p, { owner, field: name })]),
    );
    const nullable = (name: string) => isNullable(this.resolve(resolved.properties![name]!));
    const required = (resolved.required ?? []).filter((name) => name in properties && !nullable(name));
    return required.length > 0 ? { properties, required } : { properties };
  }

  private type(js: JsonSchema, place: Place): TypeSpec {
    if (js.$ref) {
      const id = defName(js.$ref);
      return this.named(this.defs[id]!, id, place);
    }
    const variants = (js.anyOf ?? js.oneOf)?.filter((v) => !isNull(v));
    if (variants) {
      if (variants.length === 1) return this.type(variants[0]!, place);
      return { oneOf: variants.map((v) => this.type(v, place)) };
    }
    if (js.enum) return this.enumType(js, place);
    const type = primaryType(js);
    switch (type) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
        return { type };
      case "array":
        return { type: "array", items: this.type(js.items ?? {}, { ...place, field: singular(place.field) }) };
      case "object":
        if (js.properties) return this.named(js, `${place.owner}${pascal(place.field)}`, place);
        return {
          type: "object",
          additionalProperties:
            typeof js.additionalProperties === "object"
              ? this.type(js.additionalProperties, { ...place, field: singular(place.field) })
              : { $ref: ANY_REF },
        };
      default:
        if (js.const !== undefined) return { type: typeof js.const as "string" | "number" | "boolean" };
        return { $ref: ANY_REF };
    }
  }

  /** An object with properties as a named type (`name`), or an enum the definition holds. */
  private named(js: JsonSchema, name: string, place: Place): TypeSpec {
    if (js.enum) return this.enumType(js, place);
    if (!js.properties) return this.type({ ...js, $ref: undefined }, place);
    const body = this.object(js, name);
    return {
      $ref: this.registry.register(name, {
        type: "object",
        ...(js.description ? { description: js.description } : {}),
        ...body,
      }),
    };
  }

  /**
   * An enum as a named type. Its texts and any value's own name come from its declaration
   * (`documentedEnum`); a value's name defaults to the value in PascalCase.
   */
  private enumType(js: JsonSchema, place: Place): TypeSpec {
    const values = js.enum!.filter((v): v is string => typeof v === "string");
    if (values.length !== js.enum!.length) throw new Error(`schema: ${place.owner}.${place.field}: only string enums`);
    const docs = js[ENUM_DOCS];
    const enumValue = (value: string) => {
      const doc = docs?.values[value];
      return { name: doc?.name ?? pascal(value), ...(doc ? { description: doc.description } : {}), value };
    };
    return {
      $ref: this.registry.register(pascal(place.field), {
        type: "string",
        ...(docs ? { description: docs.description } : {}),
        enum: values.map(enumValue),
      }),
    };
  }

  /** A `$ref` to a definition, followed (descriptions and defaults sit on either side of it). */
  private resolve(js: JsonSchema): JsonSchema {
    return js.$ref ? { ...this.defs[defName(js.$ref)]!, ...js } : js;
  }
}

const defName = (ref: string) => ref.replace(/^#\/\$defs\//, "");

const isNull = (js: JsonSchema) => js.type === "null";

/** A field that may hold null: Pulumi has no null, so it is optional instead. */
function isNullable(js: JsonSchema): boolean {
  if (Array.isArray(js.type)) return js.type.includes("null");
  return (js.anyOf ?? js.oneOf ?? []).some(isNull);
}

function primaryType(js: JsonSchema): string | undefined {
  if (Array.isArray(js.type)) return js.type.find((t) => t !== "null");
  return js.type;
}
