// A 403 has two causes the service does not tell apart: the key lacks the operation's scope, or the
// caller's address is outside the key's ip_allow_list. `GET /v2/ping` needs no scope, so asking it
// with the same key tells them apart — and the message can name the one fix that applies, never both.
import { FORBIDDEN_HINT } from "../client/errors";
import { type Api, isForbidden } from "./api";

export type ForbiddenCause = "address" | "scope" | "unknown";

/** Why the key behind `api` was refused: one ping, answered or not. */
export async function forbiddenCause(api: Api): Promise<ForbiddenCause> {
  if (!api.ping) return "unknown";
  try {
    await api.ping();
    return "scope";
  } catch (err) {
    return isForbidden(err) ? "address" : "unknown";
  }
}

/**
 * The 403's message with the service's either-or hint replaced by the cause found.
 * `key` says which key was used, as the user knows it; `needed` is the scope (or scopes) the
 * operation takes, e.g. "domains:write".
 */
export function explainForbidden(
  message: string,
  cause: ForbiddenCause,
  what: string,
  key: string,
  needed: string,
): string {
  const base = message.replace(` ${FORBIDDEN_HINT}`, "");
  switch (cause) {
    case "address":
      // Not "or leave the list empty": an empty list admits every address, and the key that manages
      // objects can change the account, which the policy pack refuses without a list (issue 65).
      return (
        `${base} The API key in use (${key}) does not allow this machine's address: GET /v2/ping is refused ` +
        `with it too. Add this machine's address to that key's ipAllowList (for CI, your runners' egress ` +
        `addresses).`
      );
    case "scope":
      return `${base} The API key in use (${key}) lacks the scope: ${what} needs ${needed}.`;
    case "unknown":
      return `${message} ${what} needs the scope ${needed}.`;
  }
}

/** How a resource's key is named in messages: its `connection` key, or the provider's own. */
export function keyInUse(connection: unknown): string {
  const own = typeof connection === "object" && connection !== null && (connection as { apiKey?: unknown }).apiKey;
  return own
    ? "this resource's connection.apiKey; for a Tenant's resources, the tenant's bootstrap key"
    : "the provider's key, txmail:apiKey or TXMAIL_API_KEY";
}
