// The subset of the Pulumi package schema (pulumi/pulumi pkg/codegen/schema/pulumi.json) this
// generator emits. Field names are the metaschema's; `pulumi schema check` validates the result.

/** A type reference: a primitive, an array, a map, a named type (`$ref`) or a union (`oneOf`). */
export interface TypeSpec {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
  oneOf?: TypeSpec[];
}

export interface PropertySpec extends TypeSpec {
  description?: string;
  default?: string | number | boolean;
  defaultInfo?: { environment: string[] };
  secret?: boolean;
  replaceOnChanges?: boolean;
}

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export interface EnumTypeSpec {
  type: "string" | "integer" | "number" | "boolean";
  description?: string;
  enum: { name?: string; description?: string; value: string | number | boolean }[];
}

export type ComplexTypeSpec = ObjectTypeSpec | EnumTypeSpec;

/** A resource in the package schema (the metaschema's `ResourceSpec`; "declaration" is ours, provider/core/declaration.ts). */
export interface SchemaResource {
  description?: string;
  isComponent?: boolean;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs?: string[];
  properties: Record<string, PropertySpec>;
  required?: string[];
}

export interface FunctionSpec {
  description?: string;
  inputs: { properties: Record<string, PropertySpec>; required?: string[] };
  outputs: { properties: Record<string, PropertySpec>; required?: string[] };
}

export interface PackageSpec {
  name: string;
  displayName: string;
  version: string;
  description: string;
  keywords: string[];
  homepage: string;
  license: string;
  repository: string;
  publisher: string;
  /** Where the engine downloads the plugin from (a `github://` or `https://` URL; Pulumi schema docs). */
  pluginDownloadURL: string;
  config: { variables: Record<string, PropertySpec> };
  provider: SchemaResource;
  types: Record<string, ComplexTypeSpec>;
  resources: Record<string, SchemaResource>;
  functions: Record<string, FunctionSpec>;
  /** Per-language settings for Pulumi's code generators (each language's PackageInfo). */
  language: {
    /** The npm package generated code imports. */
    nodejs: { packageName: string };
    go: { importBasePath: string; generateResourceContainerTypes: boolean; respectSchemaVersion: boolean };
    python: {
      packageName: string;
      /** The package's `requires-python`. */
      pythonRequires: string;
      /** The package's dependencies: name → version range. */
      requires: Record<string, string>;
      respectSchemaVersion: boolean;
      pyproject: { enabled: boolean };
    };
    /** pulumi-java's PackageInfo: the Java package prefix and Maven dependencies (groupId:artifactId → version). */
    java: { basePackage: string; dependencies: Record<string, string> };
  };
}
