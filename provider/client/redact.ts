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
/**
 * How `redact` finds registered secrets in O(text length), however many there are: a position can
 * start a secret only if its first MIN_SECRET_LENGTH characters are a known prefix; only then is each
 * distinct secret length tried as a Set lookup (there are few distinct lengths: each kind of secret
 * has a fixed format). Counts make eviction exact. (A single alternation RegExp of all secrets was
 * tried first: recompiling it after each registration cost seconds per call at a few thousand
 * secrets; a per-prefix candidate list degrades when many secrets share a prefix, as API keys do.)
 */
const prefixCounts = new Map<string, number>();
const lengthCounts = new Map<number, number>();
let lengthsLongestFirst: number[] = [];

function bump<K>(m: Map<K, number>, k: K, by: number): void {
  const n = (m.get(k) ?? 0) + by;
  if (n > 0) m.set(k, n);
  else m.delete(k);
}

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
  // The lookbehind makes matches start only at the beginning of a word: without it a long run of
  // word characters is rescanned from every position (quadratic).
  [/(?<![A-Za-z0-9_])[A-Za-z0-9_]*-sk-[A-Za-z0-9_-]{64,}/g, REDACTED],
];

/** Registers a secret value so `redact` removes it from any text. Short or non-string values are ignored. */
export function registerSecret(value: unknown): void {
  if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH || secrets.has(value)) return;
  if (secrets.size >= MAX_SECRETS) {
    // Evict the oldest entry (Set iterates in insertion order). The patterns above still catch keys.
    const oldest = secrets.values().next().value;
    if (oldest !== undefined) forget(oldest);
  }
  secrets.add(value);
  bump(prefixCounts, value.slice(0, MIN_SECRET_LENGTH), 1);
  const newLength = !lengthCounts.has(value.length);
  bump(lengthCounts, value.length, 1);
  if (newLength) lengthsLongestFirst = [...lengthCounts.keys()].sort((x, y) => y - x);
}

function forget(value: string): void {
  if (!secrets.delete(value)) return;
  bump(prefixCounts, value.slice(0, MIN_SECRET_LENGTH), -1);
  bump(lengthCounts, value.length, -1);
  if (!lengthCounts.has(value.length)) lengthsLongestFirst = lengthsLongestFirst.filter((l) => l !== value.length);
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

/** Replaces every registered secret in `text` (leftmost match first, longest at each position). */
function redactRegistered(text: string): string {
  if (secrets.size === 0 || text.length < MIN_SECRET_LENGTH) return text;
  let out = "";
  let copyFrom = 0;
  let i = 0;
  while (i <= text.length - MIN_SECRET_LENGTH) {
    let hit = 0;
    if (prefixCounts.has(text.slice(i, i + MIN_SECRET_LENGTH))) {
      for (const len of lengthsLongestFirst) {
        if (i + len <= text.length && secrets.has(text.slice(i, i + len))) {
          hit = len;
          break;
        }
      }
    }
    if (hit) {
      out += text.slice(copyFrom, i) + REDACTED;
      i += hit;
      copyFrom = i;
    } else {
      i++;
    }
  }
  return out + text.slice(copyFrom);
}

/** Removes every registered secret and every secret-shaped token from `text`. */
export function redact(text: string): string {
  let out = redactRegistered(text);
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
  prefixCounts.clear();
  lengthCounts.clear();
  lengthsLongestFirst = [];
}
