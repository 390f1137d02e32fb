// Where a provider process gets its credentials, in order of precedence:
//   1. the resource's own `connection` input (stacks that manage several accounts, tenant children
//      created with the tenant's bootstrap key) — a Pulumi secret in state;
//   2. stack config `txmail:apiKey` (secret), `txmail:accountId`, `txmail:baseUrl`, handed to the
//      dynamic provider's `configure` by the engine, decrypted;
//   3. environment variables TXMAIL_API_KEY, TXMAIL_ACCOUNT_ID, TXMAIL_BASE_URL.
// Nothing here is captured by the serialized provider object: this module is loaded by package name
// inside the provider process, so credentials never reach `__provider` in state.
import { PUBLIC_BASE_URL } from "../api/paths";

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
  fromConfig = {
    apiKey: nonEmpty(config.get("txmail:apiKey")),
    accountId: nonEmpty(config.get("txmail:accountId")),
    baseUrl: nonEmpty(config.get("txmail:baseUrl")),
  };
}

/** The account a resource targets: its override, else the configured one (undefined if none). */
export function accountOf(override?: ConnectionOverride): string | undefined {
  return nonEmpty(override?.accountId) ?? fromConfig.accountId ?? nonEmpty(process.env.TXMAIL_ACCOUNT_ID);
}

export function resolveConnection(override?: ConnectionOverride): Connection {
  const env = process.env;
  const apiKey = nonEmpty(override?.apiKey) ?? fromConfig.apiKey ?? nonEmpty(env.TXMAIL_API_KEY);
  const accountId = nonEmpty(override?.accountId) ?? fromConfig.accountId ?? nonEmpty(env.TXMAIL_ACCOUNT_ID);
  const baseUrl = nonEmpty(override?.baseUrl) ?? fromConfig.baseUrl ?? nonEmpty(env.TXMAIL_BASE_URL) ?? PUBLIC_BASE_URL;
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

function nonEmpty(v: string | undefined | null): string | undefined {
  return v === undefined || v === null || v === "" ? undefined : v;
}
