// Binds the generic provider's Api to the real HTTP client: one client per connection per provider
// process, so keep-alive connections and the shared rate limiter are reused across resources.
import { createHash } from "node:crypto";
import { createClient, type TxmailClient, type TxmailClientOptions } from "../client";
import { paceDirFromEnv, rateShareFromEnv } from "./accountShare";
import type { Api } from "./api";
import type { Connection } from "./connection";

const clients = new Map<string, TxmailClient>();

export function apiFor(conn: Connection): Api {
  // Keyed by a hash so no credential is used as a map key that might be dumped in a debugger.
  const key = createHash("sha256").update(`${conn.baseUrl}\n${conn.accountId}\n${conn.apiKey}`).digest("hex");
  let client = clients.get(key);
  if (!client) {
    client = createClient({
      apiKey: conn.apiKey,
      accountId: conn.accountId,
      baseUrl: conn.baseUrl,
      ...clientTuningFromEnv(),
      logger: process.env.TXMAIL_LOG
        ? (entry) => process.stderr.write(`txmail: ${JSON.stringify(entry)}\n`)
        : undefined,
    });
    clients.set(key, client);
  }
  const c = client;
  return {
    get: (path, schema) => c.get(path, schema),
    post: async (path, body, schema, opts) => {
      const res = await c.post(path, body, schema, opts);
      const uncertain = !res.replayed && res.retriedAfter.some((f) => f.category === "server");
      return { data: res.data, replayed: res.replayed, uncertain };
    },
    put: (path, body, schema) => c.put(path, body, schema),
    delete: async (path) => {
      await c.delete(path);
    },
    list: (path, schema, query) => c.list(path, schema, query ? { query } : {}),
    ping: async () => {
      await c.ping();
    },
  };
}

/** The client settings a user tunes through the provider process's environment. */
export function clientTuningFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Pick<TxmailClientOptions, "timeouts" | "retry" | "rateLimit" | "paceDir"> {
  // TXMAIL_REQUEST_TIMEOUT_SECONDS: how long to wait for a response's headers before retrying (the
  // retry is safe: creates carry an Idempotency-Key). Default 30 s.
  const timeout = secondsFromEnv(env, "TXMAIL_REQUEST_TIMEOUT_SECONDS", 600);
  // TXMAIL_BUSY_WAIT_SECONDS: how long one request may wait while the account is busy (429s: its
  // limit is shared with the application sending the tenants' mail) or an identical create is in
  // progress. Such waits use up no attempts. Default 600 s (provider/client/options.ts).
  const busyWait = secondsFromEnv(env, "TXMAIL_BUSY_WAIT_SECONDS", 86_400);
  return {
    timeouts: timeout === undefined ? undefined : { headersMs: Math.round(timeout * 1000) },
    retry: busyWait === undefined ? undefined : { maxBusyWaitMs: Math.round(busyWait * 1000) },
    // TXMAIL_RATE_SHARE / TXMAIL_PACE_DIR: this machine's share of the account's limit, and where its
    // processes share their pace (accountShare.ts).
    rateLimit: rateShareFromEnv(env),
    paceDir: paceDirFromEnv(env),
  };
}

/** A positive number of seconds up to `max` from `env[name]`; undefined when unset or empty. */
function secondsFromEnv(env: NodeJS.ProcessEnv, name: string, max: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > max) {
    throw new Error(`${name} must be a number of seconds in (0, ${max}], got '${raw}'.`);
  }
  return seconds;
}
