// Invoke: the data functions the package schema declares (native/schema/functions.ts), run with
// the very look-ups the SDK's functions run (provider/core/lookups.ts), through the connection the
// provider was configured with (or the function's `connection` argument), as resources are.
//
// Bad arguments are answered as the protocol's failures (property and rule), which the engine
// shows as `<token> invoke failed: <rule> (<property>)`; the API key is never echoed (its rule says
// only what is wrong with it). What the schema declares secret in a result leaves in the wire's
// secret form. Nothing here logs.
import { connectionProblems, resolveConnection, type ConnectionOverride } from "../provider/core/connection";
import { apiFor } from "../provider/core/clientApi";
import { LOOKUPS, LookupArgError, isLookupName } from "../provider/core/lookups";
import { markSecrets, type SecretPath } from "../provider/core/secretMarks";
import type { CheckFailure } from "./provider";
import { DATA_FUNCTIONS, type DataFunction } from "./schema/functions";
import { token } from "./schema/tokens";
import { servedSchema } from "./servedSchema";
import { unwrapSecrets } from "./wire";

type Props = Record<string, unknown>;

export interface InvokeAnswer {
  /** The function's result, camelCased as the schema declares it; absent when there are failures. */
  result?: Props;
  failures: CheckFailure[];
}

const CONNECTION_FIELDS = ["apiKey", "accountId", "baseUrl"] as const;

export async function invoke(tok: string, args: Props): Promise<InvokeAnswer> {
  const fn = DATA_FUNCTIONS.find((f) => token(f.name) === tok);
  if (!fn || !isLookupName(fn.name)) {
    const served = DATA_FUNCTIONS.map((f) => token(f.name)).join(", ");
    throw new Error(`txmail: unknown function '${tok}'; this plugin serves ${served}. Upgrade the txmail plugin?`);
  }
  const { connection, ...own } = unwrapSecrets(args).plain;
  const failures = [...connectionFailures(connection), ...argumentFailures(fn, own)];
  if (failures.length > 0) return { failures };

  const override = (connection ?? {}) as ConnectionOverride;
  const conn = resolveConnection(override);
  const target = { api: apiFor(conn), accountId: conn.accountId };
  try {
    const result = await (LOOKUPS[fn.name] as (t: typeof target, a: Props) => Promise<Props>)(target, own);
    return { result: markSecrets(result, secretPathsOf(packageSchema(), tok)), failures };
  } catch (err) {
    if (err instanceof LookupArgError) return { failures: [{ property: err.property, reason: err.reason }] };
    throw err;
  }
}

/** The function's own arguments against its declared inputs: unknown ones, missing ones, broken rules. */
function argumentFailures(fn: DataFunction, own: Props): CheckFailure[] {
  const parsed = fn.inputs.strict().safeParse(own);
  if (parsed.success) return [];
  const takes = [...Object.keys(fn.inputs.shape), "connection"].join(", ");
  return parsed.error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys")
      return issue.keys.map((k) => ({
        property: k,
        reason: `${fn.name} takes no argument '${k}' (it takes ${takes})`,
      }));
    const property = issue.path.join(".");
    const missing = issue.code === "invalid_type" && own[String(issue.path[0])] === undefined;
    return [{ property, reason: missing ? "is required" : issue.message }];
  });
}

/** The `connection` argument: an object of the connection's fields, each in the service's form. */
function connectionFailures(connection: unknown): CheckFailure[] {
  if (connection === undefined || connection === null) return problemsAsFailures(connectionProblems());
  if (typeof connection !== "object" || Array.isArray(connection))
    return [{ property: "connection", reason: `must be an object with ${CONNECTION_FIELDS.join(", ")}` }];
  const failures: CheckFailure[] = [];
  for (const [k, v] of Object.entries(connection)) {
    if (!(CONNECTION_FIELDS as readonly string[]).includes(k))
      failures.push({
        property: `connection.${k}`,
        reason: `is not a connection field (${CONNECTION_FIELDS.join(", ")})`,
      });
    else if (v !== undefined && v !== null && typeof v !== "string")
      failures.push({ property: `connection.${k}`, reason: "must be a string" });
  }
  return failures.length > 0 ? failures : problemsAsFailures(connectionProblems(connection as Props));
}

/** connection.ts's problems (`<where>: <rule>`, never the API key's value) as failures. */
const problemsAsFailures = (problems: string[]): CheckFailure[] =>
  problems.map((p) => {
    const at = p.indexOf(": ");
    return at < 0 ? { property: "connection", reason: p } : { property: p.slice(0, at), reason: p.slice(at + 2) };
  });

interface PropertySpec {
  type?: string;
  secret?: boolean;
  $ref?: string;
}
/** The parts of the package schema that say what a function's result holds. */
export interface PackageSchema {
  functions?: Record<string, { outputs?: { properties?: Record<string, PropertySpec> } }>;
  types?: Record<string, { properties?: Record<string, PropertySpec> }>;
}

let parsed: PackageSchema | undefined;
const packageSchema = () => (parsed ??= JSON.parse(servedSchema()) as PackageSchema);

/**
 * The paths of a function's result that the schema declares secret: its outputs' properties and
 * those of the object types they refer to (lists are not entered: a secret there marks nothing).
 */
export function secretPathsOf(schema: PackageSchema, tok: string): SecretPath[] {
  const paths: SecretPath[] = [];
  const walk = (props: Record<string, PropertySpec> | undefined, at: string[], seen: Set<string>) => {
    for (const [name, prop] of Object.entries(props ?? {})) {
      if (prop.secret) paths.push([...at, name]);
      else if (prop.$ref?.startsWith("#/types/")) {
        const ref = prop.$ref.slice("#/types/".length);
        if (!seen.has(ref)) walk(schema.types?.[ref]?.properties, [...at, name], new Set([...seen, ref]));
      }
    }
  };
  walk(schema.functions?.[tok]?.outputs?.properties, [], new Set());
  return paths;
}
