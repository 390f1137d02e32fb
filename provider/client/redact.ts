// Process-wide secret redaction.
//
// Why a registry and not just patterns: the service's API keys have a recognisable shape, but route and
// webhook signing secrets, SMTP passwords and DKIM keys do not. Every secret the client sends or receives
// is registered here, and every error message and log line passes through `redact` before anyone sees
// it. The registry is module-level on purpose: one provider process may run many clients (one per
// resource operation), and a secret seen by one of them must not leak through another's error text.

/** What replaces a secret in text. */
export const REDACTED = "[REDACTED]";

/** Shorter strings are not registered: redacting "a" or "true" everywhere would destroy messages. */
const MIN_SECRET_LENGTH = 8;
/** Bounded memory: a `pulumi up` creating more secrets than this is far beyond any realistic stack. */
const MAX_SECRETS = 50_000;

/** Field names whose string values are secrets wherever they appear in a request or response body. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "secret_key",
  "password",
  "secret",
  "dkim_private_key",
  "api_key",
  "apiKey",
  "secretKey",
]);

const secrets = new Set<string>();
let compiled: RegExp | null = null;

/**
 * Shapes that are secrets even if never registered:
 * - the service's key format `<prefix>-sk-<64 random characters>`;
 * - an Authorization header value (`Bearer …`), whatever the token looks like;
 * - an Idempotency-Key header (sensitive enough to keep out of logs, per the API's own advice);
 * - a PEM private key block (a DKIM key echoed in a validation message).
 */
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED],
  [/\b(authorization\s*[:=]\s*)("?)(bearer\s+)?[^\s",;]+/gi, `$1$2$3${REDACTED}`],
  [/\b(bearer\s+)[A-Za-z0-9._~+/=-]+/gi, `$1${REDACTED}`],
  [/\b(idempotency-key\s*[:=]\s*)("?)[^\s",;]+/gi, `$1$2${REDACTED}`],
  [/[A-Za-z0-9_]*-sk-[A-Za-z0-9_-]{64,}/g, REDACTED],
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Registers a secret value so `redact` removes it from any text. Short or non-string values are ignored. */
export function registerSecret(value: unknown): void {
  if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH || secrets.has(value)) return;
  if (secrets.size >= MAX_SECRETS) {
    // Evict the oldest entry (Set iterates in insertion order). The patterns above still catch keys.
    const oldest = secrets.values().next().value;
    if (oldest !== undefined) secrets.delete(oldest);
  }
  secrets.add(value);
  compiled = null;
}

/**
 * Registers every string under a secret-named field of a JSON value (request or response body).
 * Depth- and size-bounded: bodies of this API are shallow, and a hostile body must not hang us.
 */
export function registerSecretsIn(value: unknown, depth = 0): void {
  if (depth > 8 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    const n = Math.min(value.length, 1000);
    for (let i = 0; i < n; i++) registerSecretsIn(value[i], depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (SECRET_FIELDS.has(k)) registerSecret(v);
    else registerSecretsIn(v, depth + 1);
  }
}

/** Longest first, so a secret that contains another is removed whole. */
function registryRegExp(): RegExp | null {
  if (secrets.size === 0) return null;
  if (!compiled) {
    const alternatives = [...secrets].sort((a, b) => b.length - a.length).map(escapeRegExp);
    compiled = new RegExp(alternatives.join("|"), "g");
  }
  return compiled;
}

/** Removes every registered secret and every secret-shaped token from `text`. */
export function redact(text: string): string {
  let out = text;
  const re = registryRegExp();
  if (re) out = out.replace(re, REDACTED);
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** True when `text` still contains a registered secret (used by tests and debug assertions). */
export function containsRegisteredSecret(text: string): boolean {
  for (const s of secrets) if (text.includes(s)) return true;
  return false;
}

/** For tests only: forget every registered secret. */
export function clearSecretsForTests(): void {
  secrets.clear();
  compiled = null;
}
