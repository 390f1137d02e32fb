// A component's inputs as the engine sends them to Construct, made into what a TypeScript program
// would have passed to the component's constructor.
//
// Why not @pulumi/pulumi's own `deserializeInputs`: it wraps a whole top-level input in one Output
// as soon as anything in it is secret or depends on a resource. The Tenant reads the *shape* of its
// inputs (which routes, which webhooks, whether there is a domain) to decide which resources to
// create, so a `routes` that became one Output would be unreadable. Here the shape stays plain and
// only the leaves become Outputs: a secret leaf is a secret Output (a secret object or list marks
// every leaf in it), a leaf of an input that depends on resources carries those dependencies, and
// an unknown value (at preview) is an unknown Output. Only a value whose shape itself is unknown
// stays one Output, and the component says which field must be known (`requirePlain`).
import * as pulumi from "@pulumi/pulumi";
import * as rpc from "@pulumi/pulumi/runtime/rpc";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What a leaf carries from the values around it. */
interface Context {
  secret: boolean;
  deps: pulumi.Resource[];
}

/**
 * The inputs (a Struct's JavaScript value) with their dependencies (input name → URNs). Secrets,
 * unknowns and output values are in the wire's signed forms (rpc.specialSigKey).
 */
export function constructInputs(
  raw: Record<string, Json>,
  dependencies: ReadonlyMap<string, readonly string[]>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const deps = (dependencies.get(key) ?? []).map((urn) => new pulumi.DependencyResource(urn));
    const v = walk(value, { secret: false, deps });
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function walk(v: Json, ctx: Context): unknown {
  if (v === rpc.unknownValue) return unknownOutput(ctx);
  if (v === null || typeof v !== "object") return leaf(v, ctx);
  if (Array.isArray(v)) {
    // A list is one value to a resource input (`ipAllowList`): one Output when any element is one
    // (it carries their secret mark and dependencies); an empty list carries the context's.
    const elems = v.map((e) => walk(e, ctx));
    if (elems.some((e) => pulumi.Output.isInstance(e))) return pulumi.all(elems);
    return elems.length === 0 ? leaf(elems, ctx) : elems;
  }
  const sig = v[rpc.specialSigKey];
  if (sig === rpc.specialSecretSig) return walk(v.value as Json, { ...ctx, secret: true });
  if (sig === rpc.specialOutputValueSig) {
    const deps = Array.isArray(v.dependencies)
      ? [...ctx.deps, ...v.dependencies.map((urn) => new pulumi.DependencyResource(String(urn)))]
      : ctx.deps;
    const inner = { secret: ctx.secret || v.secret === true, deps };
    return v.value === undefined ? unknownOutput(inner) : walk(v.value, inner);
  }
  // Anything else signed (a resource reference, an asset) has its own meaning: the SDK's reading.
  if (sig !== undefined) return leaf(rpc.deserializeProperty(v) as Json, ctx);
  const obj: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const w = walk(x, ctx);
    if (w !== undefined) obj[k] = w;
  }
  return obj;
}

/**
 * The Output constructor @pulumi/pulumi itself uses to rebuild values from the wire (its typings
 * only show `Output.create`): the one way to make an Output that is unknown, or that depends on a
 * resource known only by its URN.
 */
const OutputFromWire = pulumi.Output as unknown as new (
  resources: pulumi.Resource[],
  value: Promise<unknown>,
  isKnown: Promise<boolean>,
  isSecret: Promise<boolean>,
  allResources: Promise<pulumi.Resource[]>,
) => pulumi.Output<unknown>;

const output = (value: unknown, known: boolean, ctx: Context) =>
  new OutputFromWire(
    ctx.deps,
    Promise.resolve(value),
    Promise.resolve(known),
    Promise.resolve(ctx.secret),
    Promise.resolve([]),
  );

/** A plain value when nothing is attached to it, else an Output carrying the secret mark and dependencies. */
const leaf = (v: unknown, ctx: Context): unknown => (!ctx.secret && ctx.deps.length === 0 ? v : output(v, true, ctx));

const unknownOutput = (ctx: Context) => output(undefined, false, ctx);

/**
 * Fails with the field's name when a value the component reads the shape of is not a plain object
 * (it came out unknown at preview, or whole from another resource's output).
 */
export function requirePlain(component: string, field: string, value: unknown): void {
  if (value === undefined) return;
  if (value === null || typeof value !== "object" || Array.isArray(value) || pulumi.Output.isInstance(value)) {
    throw new Error(
      `${component}: ${field} must be an object known when the program runs (its entries decide which ` +
        `resources are created), not a value computed from another resource's outputs`,
    );
  }
}
