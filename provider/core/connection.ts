// Where a provider process gets its credentials, in order of precedence:
//   1. the resource's own `connection` input (stacks that manage several accounts, tenant children
//      created with the tenant's bootstrap key) — a Pulumi secret in state;
//   2. stack config `txmail:apiKey` (secret), `txmail:accountId`, `txmail:baseUrl`, handed to the
//      dynamic provider's `configure` by the engine, decrypted;
//   3. environment variables TXMAIL_API_KEY, TXMAIL_ACCOUNT_ID, TXMAIL_BASE_URL.
// Nothing here is captured by the serialized provider object: this module is loaded by package name
// inside the provider process, so credentials never reach `__provider` in state.
import { PUBLIC_BASE_URL } from "../api/paths";
import { Uuid } from "../api/common";
import { isUnknown } from "./unknowns";

export interface Connection {
  apiKey: string;
  accountId: string;
  baseUrl: string;
}

/** Per-resource override; any field left out falls back to config, then environment. */
export type ConnectionOverride = Partial<Connection>;

interface ConfigSource {
  get(key: string): string | undefined;
}

let fromConfig: ConnectionOverride = {};

/** Called from the dynamic provider's `configure` with the stack's (decrypted) config. */
export function configureConnection(config: ConfigSource): void {
  fromConfig = readConfig(config);
}

function readConfig(config: ConfigSource): ConnectionOverride {
  return {
    apiKey: nonEmpty(config.get("txmail:apiKey")),
    accountId: nonEmpty(config.get("txmail:accountId")),
    baseUrl: nonEmpty(config.get("txmail:baseUrl")),
  };
}

type Field = keyof Connection;

/** Where each field can come from, as a user names it, in order of precedence. */
const SOURCES: Record<Field, { config: string; env: string }> = {
  apiKey: { config: "txmail:apiKey", env: "TXMAIL_API_KEY" },
  accountId: { config: "txmail:accountId", env: "TXMAIL_ACCOUNT_ID" },
  baseUrl: { config: "txmail:baseUrl", env: "TXMAIL_BASE_URL" },
};

/**
 * One field of the connection a resource uses, in order of precedence — its `connection`, stack
 * config, environment — with where it came from as a user names it; undefined when none sets it.
 */
function lookup(
  field: Field,
  override?: Record<string, unknown>,
  configuredAs: ConnectionOverride = fromConfig,
): { value: string; where: string } | undefined {
  const own = override?.[field];
  if (typeof own === "string" && own !== "") return { value: own, where: `connection.${field}` };
  const { config, env } = SOURCES[field];
  const configured = configuredAs[field];
  if (configured !== undefined) return { value: configured, where: config };
  const fromEnv = nonEmpty(process.env[env]);
  return fromEnv === undefined ? undefined : { value: fromEnv, where: env };
}

/** The account a resource targets: its override, else the configured one (undefined if none). */
export function accountOf(override?: ConnectionOverride): string | undefined {
  return lookup("accountId", override)?.value;
}

export function resolveConnection(override?: ConnectionOverride): Connection {
  const apiKey = lookup("apiKey", override)?.value;
  const accountId = lookup("accountId", override)?.value;
  const baseUrl = lookup("baseUrl", override)?.value ?? PUBLIC_BASE_URL;
  if (!apiKey) {
    throw new Error(
      "txmail: no API key. Set it with `pulumi config set --secret txmail:apiKey <key>` " +
        "or the TXMAIL_API_KEY environment variable.",
    );
  }
  if (!accountId) {
    throw new Error(
      "txmail: no account id. Set it with `pulumi config set txmail:accountId <uuid>` " +
        "or the TXMAIL_ACCOUNT_ID environment variable.",
    );
  }
  return { apiKey, accountId, baseUrl: baseUrl.replace(/\/+$/, "") };
}

/** The service's form of each field; a reason naming the rule, or undefined when the value is good. */
const RULES: Record<Field, (value: string) => string | undefined> = {
  // Never echo the key: it is a secret.
  apiKey: (v) => (v.trim() === v ? undefined : "must not start or end with white space"),
  accountId: (v) =>
    Uuid.safeParse(v).success ? undefined : `must be an account id (8-4-4-4-12 hexadecimal digits), got '${v}'`,
  baseUrl: (v) => (isHttpUrl(v) ? undefined : `must be an http(s) URL such as ${PUBLIC_BASE_URL}, got '${v}'`),
};

function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "" && !/\s/.test(v);
  } catch {
    return false;
  }
}

/** The rule for one connection field, for the `connection` input's schema: the same text as config gets. */
export function connectionFieldProblem(field: Field, value: string): string | undefined {
  return RULES[field](value);
}

/**
 * What `pulumi up` would stumble on, found at preview without calling the service: each field of
 * the connection this resource would use (its `connection`, else stack config, else environment),
 * checked against the service's form, every message naming where the value came from. A field the
 * override leaves unknown at preview (a Tenant's child, whose key is created in the same run) is
 * checked when it is known, so nothing falls back past it.
 */
export function connectionProblems(
  override?: Record<string, unknown>,
  configuredAs: ConnectionOverride = fromConfig,
): string[] {
  const problems: string[] = [];
  for (const field of Object.keys(SOURCES) as Field[]) {
    const own = override?.[field];
    if (isUnknown(own)) continue;
    const found = lookup(field, override, configuredAs);
    if (found === undefined) {
      if (field === "baseUrl") continue; // the public service is the default
      const { config, env } = SOURCES[field];
      problems.push(
        `${config}: not set; set it with \`pulumi config set ${field === "apiKey" ? "--secret " : ""}${config} …\`` +
          ` or the ${env} environment variable`,
      );
      continue;
    }
    const { value, where } = found;
    const reason = RULES[field](value);
    if (reason) problems.push(`${where}: ${reason}`);
  }
  return problems;
}

/**
 * The malformed settings of a provider configuration before it is applied (a native provider's
 * CheckConfig), each with the rule and where the value came from (its config key, else the
 * environment), as `connectionProblems` words them. A missing setting is not one: resources that
 * bring their own `connection` need none, and each resource's check names what it lacks. A value
 * not known yet (an explicit provider fed by another resource's output) is checked once it is.
 */
export function configProblems(config: ConfigSource): Array<{ field: Field; problem: string }> {
  const configured = readConfig(config);
  const problems: Array<{ field: Field; problem: string }> = [];
  for (const field of Object.keys(SOURCES) as Field[]) {
    if (isUnknown(configured[field])) continue;
    const found = lookup(field, undefined, configured);
    const reason = found && RULES[field](found.value);
    if (found && reason) problems.push({ field, problem: `${found.where}: ${reason}` });
  }
  return problems;
}

function nonEmpty(v: string | undefined | null): string | undefined {
  return v === undefined || v === null || v === "" ? undefined : v;
}
