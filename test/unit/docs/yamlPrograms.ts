// Pulumi YAML programs checked as `pulumi preview` would check them, without an engine:
//   - yamlProblems: every type token, function token and property is in the package schema (generated
//     in memory from the declarations), every value has the property's type (enum values included),
//     required inputs are given, and every `${…}` names a resource or variable of the program and
//     properties it has;
//   - yamlCheckProblems: the literal inputs pass the provider's check (the declarations' zod schemas
//     and cross-field rules).
// Used for docs/examples (examples.test.ts) and the Registry pages' YAML (registry.test.ts).
import { parse } from "yaml";
import { z } from "zod";
import { declarationOf } from "../../../provider/resources";
import { DATA_FUNCTIONS } from "../../../native/schema/functions";
import { packageSchema } from "../../../native/schema/packageSchema";
import { TenantInputs } from "../../../native/schema/tenant";
import type { PropertySpec, TypeSpec } from "../../../native/schema/pulumiSchema";

const schema = packageSchema();

// ---- Pulumi YAML against the package schema --------------------------------------------------------

type Props = Record<string, PropertySpec>;
const RESOURCE_BUILTINS: Props = { id: { type: "string" }, urn: { type: "string" } };

function resourceProps(token: string): Props | undefined {
  const res = schema.resources[token];
  return res && { ...RESOURCE_BUILTINS, ...res.properties };
}

/** The properties reachable under a value of type `t` (undefined: a leaf; "any": anything goes). */
function childrenOf(t: TypeSpec): Props | "any" | "index" | "key" | undefined {
  if (t.$ref === "pulumi.json#/Any") return "any";
  if (t.$ref?.startsWith("#/resources/")) return resourceProps(t.$ref.slice("#/resources/".length));
  if (t.$ref?.startsWith("#/types/")) {
    const def = schema.types[t.$ref.slice("#/types/".length)];
    return def && "properties" in def ? def.properties : undefined;
  }
  if (t.type === "array") return "index";
  if (t.type === "object" && t.additionalProperties) return "key";
  return undefined;
}

/** Problems with one `${…}` expression: its root is a resource or variable, each step a property. */
function referenceProblems(expr: string, roots: Record<string, Props>, where: string): string[] {
  const segs = expr.split(/\.|\[(\d+|"[^"]*")\]/).filter((s) => s !== undefined && s !== "");
  const [root, ...rest] = segs;
  let props: Props | undefined = roots[root!];
  if (!props) return [`${where}: \${${expr}}: no resource or variable '${root}'`];
  let current: TypeSpec | undefined;
  for (const seg of rest) {
    if (current) {
      const kids = childrenOf(current);
      if (kids === "any") return [];
      if (kids === "index" || kids === "key") {
        current = kids === "index" ? current.items : current.additionalProperties;
        continue;
      }
      props = kids;
    }
    if (!props || !(seg in props)) return [`${where}: \${${expr}}: no property '${seg}'`];
    current = props[seg];
    props = undefined;
  }
  return [];
}

function expressions(value: unknown): string[] {
  if (typeof value === "string") return [...value.matchAll(/\$\{([^}]+)\}/g)].map((m) => m[1]!.trim());
  if (Array.isArray(value)) return value.flatMap(expressions);
  if (value && typeof value === "object") return Object.values(value).flatMap(expressions);
  return [];
}

/** Problems with a literal value against its property type. */
function valueProblems(value: unknown, t: TypeSpec, where: string): string[] {
  if (typeof value === "string" && value.includes("${")) return []; // an output's type is checked by its path
  if (t.$ref === "pulumi.json#/Any") return [];
  // A union (a rotation: the legacy string or a schedule): the value fits one of its types.
  if (t.oneOf) {
    const each = t.oneOf.map((v) => valueProblems(value, v, where));
    return each.some((p) => p.length === 0) ? [] : each.flat();
  }
  if (t.$ref?.startsWith("#/types/")) {
    const def = schema.types[t.$ref.slice("#/types/".length)];
    if (!def) return [`${where}: unknown type ${t.$ref}`];
    if ("enum" in def) {
      const values = def.enum.map((e) => e.value);
      return values.includes(value as never) ? [] : [`${where}: ${JSON.stringify(value)} is not one of ${values}`];
    }
    return objectProblems(value, def.properties, def.required ?? [], where);
  }
  switch (t.type) {
    case "string":
      return typeof value === "string" ? [] : [`${where}: not a string`];
    case "boolean":
      return typeof value === "boolean" ? [] : [`${where}: not a boolean`];
    case "integer":
      return Number.isInteger(value) ? [] : [`${where}: not an integer`];
    case "number":
      return typeof value === "number" ? [] : [`${where}: not a number`];
    case "array":
      return Array.isArray(value)
        ? value.flatMap((v, i) => valueProblems(v, t.items!, `${where}[${i}]`))
        : [`${where}: not a list`];
    case "object":
      return value && typeof value === "object" && !Array.isArray(value)
        ? Object.entries(value).flatMap(([k, v]) => valueProblems(v, t.additionalProperties ?? {}, `${where}.${k}`))
        : [`${where}: not a map`];
    default:
      return [`${where}: a type the check does not know (${JSON.stringify(t)})`];
  }
}

function objectProblems(value: unknown, props: Props, required: readonly string[], where: string): string[] {
  if (!value || typeof value !== "object" || Array.isArray(value)) return [`${where}: not an object`];
  const given = value as Record<string, unknown>;
  return [
    ...required.filter((r) => !(r in given)).map((r) => `${where}: required '${r}' missing`),
    ...Object.entries(given).flatMap(([k, v]) =>
      props[k] ? valueProblems(v, props[k], `${where}.${k}`) : [`${where}: no property '${k}'`],
    ),
  ];
}

export interface YamlProgram {
  name?: string;
  runtime?: string;
  variables?: Record<string, unknown>;
  resources?: Record<string, { type: string; properties?: Record<string, unknown>; options?: Record<string, unknown> }>;
  outputs?: Record<string, unknown>;
}

/**
 * A token as the schema spells it: Pulumi YAML reads `pkg:Name` as `pkg:index:Name` (pulumi-yaml
 * pkg/pulumiyaml/packages.go), the short form its program generator writes.
 */
export function fullToken(token: string): string {
  const parts = token.split(":");
  return parts.length === 2 ? `${parts[0]}:index:${parts[1]}` : token;
}

/** Everything wrong with a Pulumi YAML program against the package schema. */
export function yamlProblems(text: string): string[] {
  const program = parse(text) as YamlProgram;
  const problems: string[] = [];
  if (program.runtime !== "yaml") problems.push("runtime: not yaml");
  const roots: Record<string, Props> = {};
  for (const [name, v] of Object.entries(program.variables ?? {})) {
    const invoke = (v as { "fn::invoke"?: { function: string; arguments?: Record<string, unknown> } })["fn::invoke"];
    if (!invoke) continue;
    const fn = schema.functions[fullToken(invoke.function)];
    if (!fn) {
      problems.push(`variables.${name}: no function ${invoke.function}`);
      continue;
    }
    problems.push(
      ...objectProblems(invoke.arguments ?? {}, fn.inputs.properties, fn.inputs.required ?? [], `variables.${name}`),
    );
    roots[name] = fn.outputs.properties;
  }
  for (const [name, r] of Object.entries(program.resources ?? {})) {
    const res = schema.resources[fullToken(r.type)];
    if (!res) {
      problems.push(`resources.${name}: no resource type ${r.type}`);
      continue;
    }
    problems.push(
      ...objectProblems(r.properties ?? {}, res.inputProperties, res.requiredInputs ?? [], `resources.${name}`),
    );
    roots[name] = resourceProps(fullToken(r.type))!;
  }
  for (const [where, value] of [
    ...Object.entries(program.resources ?? {}).map(([n, r]) => [`resources.${n}`, r.properties] as const),
    ...Object.entries(program.variables ?? {}).map(([n, v]) => [`variables.${n}`, v] as const),
    ...Object.entries(program.outputs ?? {}).map(([n, v]) => [`outputs.${n}`, v] as const),
  ]) {
    for (const expr of expressions(value)) problems.push(...referenceProblems(expr, roots, where));
  }
  return problems;
}

// ---- Pulumi YAML against the provider's check -----------------------------------------------------

const interpolated = (value: unknown) => expressions(value).length > 0;

/** Why the provider's check would refuse these inputs: the declaration's zod schema and cross-field rules. */
function checkProblems(
  schema: z.ZodObject,
  given: Record<string, unknown>,
  where: string,
  validate?: (props: Record<string, unknown>, olds: Record<string, unknown>) => { reason: string }[],
): string[] {
  // Values known only at run time (`${…}`) are left out, with the inputs every kind takes.
  const unknown = Object.keys(given).filter((k) => interpolated(given[k]) || k === "connection" || k === "adoptId");
  const literal = Object.fromEntries(Object.entries(given).filter(([k]) => !unknown.includes(k)));
  const known = Object.entries(schema.shape).filter(([k]) => !unknown.includes(k));
  const parsed = z.object(Object.fromEntries(known)).safeParse(literal);
  if (!parsed.success) return parsed.error.issues.map((i) => `${where}.${i.path.join(".")}: ${i.message}`);
  return (validate?.(parsed.data, {}) ?? []).map((p) => `${where}: ${p.reason}`);
}

/** The literal inputs of a YAML program's resources and invokes, through the provider's check. */
export function yamlCheckProblems(text: string): string[] {
  const program = parse(text) as YamlProgram;
  const problems: string[] = [];
  for (const [name, r] of Object.entries(program.resources ?? {})) {
    const kind = fullToken(r.type).replace(/^txmail:index:/, "");
    const declaration = declarationOf(kind);
    const schema = (kind === "Tenant" ? TenantInputs : declaration?.inputs) as z.ZodObject | undefined;
    if (!schema) continue; // an unknown token is yamlProblems' to report
    problems.push(
      ...checkProblems(schema, r.properties ?? {}, `resources.${name}`, declaration?.validate?.bind(declaration)),
    );
  }
  for (const [name, v] of Object.entries(program.variables ?? {})) {
    const invoke = (v as { "fn::invoke"?: { function: string; arguments?: Record<string, unknown> } })["fn::invoke"];
    const fn = DATA_FUNCTIONS.find((f) => `txmail:index:${f.name}` === fullToken(invoke?.function ?? ""));
    if (fn) problems.push(...checkProblems(fn.inputs, invoke!.arguments ?? {}, `variables.${name}`));
  }
  return problems;
}
