// The service's scope grammar (docs/contract/scopes.md#scope-list): fixed scopes, and templates ending in `{domain}`
// that take one of the account's domain names. A `{domain}` scope for a domain this stack does not
// manage is fine; a malformed one is not.

/** Every fixed scope. */
export const FIXED_SCOPES: readonly string[] = [
  "messages:send:all",
  "messages:cancel:all",
  "messages:read:all",
  "domains:read",
  "domains:write",
  "domains:delete:all",
  "accounts:read",
  "accounts:write",
  "accounts:billing",
  "accounts:members:read",
  "accounts:members:add",
  "accounts:members:update",
  "accounts:members:remove",
  "webhooks:read:all",
  "webhooks:write:all",
  "webhooks:delete:all",
  "routes:read:all",
  "routes:write:all",
  "routes:delete:all",
  "suppressions:read",
  "suppressions:write",
  "suppressions:delete",
  "suppressions:wipe",
  "smtp-credentials:read:all",
  "smtp-credentials:write:all",
  "smtp-credentials:delete:all",
  "statistics-transactional:read:all",
  "api-keys:read",
  "api-keys:write",
  "api-keys:delete",
  "sub-accounts:read",
  "sub-accounts:write",
  "sub-accounts:delete",
  "sub-accounts:suspend",
  "sub-accounts:usage",
  "sub-account-api-keys:read",
  "sub-account-api-keys:write",
  "sub-account-api-keys:delete",
];

/** Prefixes that take a domain name instead of `all` (`routes:write:` + `mail.example.com`). */
export const DOMAIN_SCOPE_PREFIXES: readonly string[] = [
  "messages:send:",
  "messages:cancel:",
  "messages:read:",
  "domains:delete:",
  "webhooks:read:",
  "webhooks:write:",
  "webhooks:delete:",
  "routes:read:",
  "routes:write:",
  "routes:delete:",
  "smtp-credentials:read:",
  "smtp-credentials:write:",
  "smtp-credentials:delete:",
  "statistics-transactional:read:",
];

/** The `{domain}` scopes as the contract writes them (`routes:write:{domain}`), for messages and docs. */
export const DOMAIN_SCOPE_TEMPLATES: readonly string[] = DOMAIN_SCOPE_PREFIXES.map((p) => `${p}{domain}`);

const fixed = new Set(FIXED_SCOPES);
// Lower-case LDH labels, at least two, the last not all digits (so an IP address is not a domain).
// Upper case is refused rather than folded: the service stores domains in lower case, and a
// folded scope would differ from what the service returns on every refresh.
const HOSTNAME = /^(?=.{1,253}$)((?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?!-)(?!\d+$)[a-z0-9-]{1,63}(?<!-)$/;

export interface ParsedScope {
  scope: string;
  /** The domain of a `{domain}` scope. */
  domain?: string;
  /** `all` scopes, and account-wide ones, reach every object. */
  wide: boolean;
  /** What the scope allows: read, write, delete, or another verb (send, cancel, …). */
  verb: string;
}

export function parseScope(scope: string): ParsedScope | undefined {
  if (fixed.has(scope)) {
    const parts = scope.split(":");
    const verb = parts[parts.length - 1] === "all" ? parts[parts.length - 2] : parts[parts.length - 1];
    return { scope, wide: true, verb };
  }
  const prefix = DOMAIN_SCOPE_PREFIXES.find((p) => scope.startsWith(p));
  if (!prefix) return undefined;
  const domain = scope.slice(prefix.length);
  if (!HOSTNAME.test(domain)) return undefined;
  return { scope, domain, wide: false, verb: prefix.split(":").at(-2)! };
}

/** A message naming what is wrong with a scope, or undefined when it is valid. */
export function scopeProblem(scope: string): string | undefined {
  if (typeof scope !== "string" || scope === "") return "a scope must be a non-empty string";
  if (parseScope(scope)) return undefined;
  const prefix = DOMAIN_SCOPE_PREFIXES.find((p) => scope.startsWith(p));
  if (prefix) {
    return `'${scope}': '${scope.slice(prefix.length)}' is not a valid domain name (expected e.g. ${prefix}mail.example.com, lower case)`;
  }
  const near = nearMiss(scope);
  if (near) return `'${scope}' is not a scope of the service; did you mean ${near}?`;
  return `'${scope}' is not a scope of the service (e.g. messages:send:all, routes:write:{domain}, api-keys:read)`;
}

/** The usual slips: `:all` added where the scope has none, or left off where it is required. */
function nearMiss(scope: string): string | undefined {
  const lower = scope.toLowerCase();
  if (lower !== scope && parseScope(lower)) return `'${lower}'`;
  if (scope.endsWith(":all") && fixed.has(scope.slice(0, -4))) return `'${scope.slice(0, -4)}'`;
  if (fixed.has(`${scope}:all`)) return `'${scope}:all' or '${scope}:{domain}'`;
  return undefined;
}
