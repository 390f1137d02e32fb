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
      logger: process.env.TXMAIL_LOG
        ? (entry) => process.stderr.write(`txmail: ${JSON.stringify(entry)}\n`)
        : undefined,
    });
    clients.set(key, client);
  }
  const c = client;
  return {
    get: (path, schema) => c.get(path, schema),
    post: (path, body, schema, opts) => c.post(path, body, schema, opts),
    put: (path, body, schema) => c.put(path, body, schema),
    delete: async (path) => {
      await c.delete(path);
    },
  };
}
