// Binds the generic provider's Api to the real HTTP client: one client per connection per provider
// process, so keep-alive connections and the shared rate limiter are reused across resources.
import { createHash } from "node:crypto";
import { createClient, type TxmailClient } from "../client";
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
      timeouts: requestTimeout(),
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
      const uncertain = !res.replayed && res.retriedAfter.some((f) => f.kind === "server");
      return { data: res.data, replayed: res.replayed, uncertain };
    },
    put: (path, body, schema) => c.put(path, body, schema),
    delete: async (path) => {
      await c.delete(path);
    },
    list: (path, schema, query) => c.list(path, schema, query ? { query } : {}),
  };
}

/**
 * TXMAIL_REQUEST_TIMEOUT_SECONDS: how long to wait for a response's headers before retrying (the
 * retry is safe: creates carry an Idempotency-Key). Default 30 s.
 */
function requestTimeout(): { headersMs: number } | undefined {
  const raw = process.env.TXMAIL_REQUEST_TIMEOUT_SECONDS;
  if (raw === undefined || raw === "") return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600) {
    throw new Error(`TXMAIL_REQUEST_TIMEOUT_SECONDS must be a number of seconds in (0, 600], got '${raw}'.`);
  }
  return { headersMs: Math.round(seconds * 1000) };
}
