// Scope checks (docs/contract/scopes.md#scope-each-endpoint-requires), on the scope grammar of
// provider/api/scopes.ts. A 403 names the scope that would have allowed the operation.
import { parseScope } from "../provider/api/scopes";
import type { ScopeNeed } from "./context";
import { forbidden } from "./http/errors";
import type { KeyData } from "./records";

export interface DomainGrant {
  all: boolean;
  domains: Set<string>;
}

export function hasScope(key: KeyData, scope: string): boolean {
  return key.scopes.includes(scope);
}

/** What `<family>:<verb>:all` / `<family>:<verb>:{domain}` scopes the key holds. */
export function grant(key: KeyData, family: string, verb: string): DomainGrant {
  const prefix = `${family}:${verb}:`;
  const g: DomainGrant = { all: false, domains: new Set() };
  for (const s of key.scopes) {
    if (!s.startsWith(prefix)) continue;
    if (s === `${prefix}all`) g.all = true;
    else {
      const p = parseScope(s);
      if (p?.domain) g.domains.add(p.domain);
    }
  }
  return g;
}

export function describeNeed(need: ScopeNeed): string {
  return "fixed" in need ? need.fixed : `${need.family}:${need.verb}:all or ${need.family}:${need.verb}:{domain}`;
}

/** The pre-idempotency check: the key holds the fixed scope, or some scope of the family verb. */
export function checkNeed(key: KeyData, need: ScopeNeed): void {
  if ("fixed" in need) {
    if (!hasScope(key, need.fixed)) throw forbidden(`missing scope: ${need.fixed} is required`);
    return;
  }
  const g = grant(key, need.family, need.verb);
  if (!g.all && g.domains.size === 0) throw forbidden(`missing scope: ${describeNeed(need)} is required`);
}

/**
 * Object-level check for `{domain}` scopes. `mode` "any": one of the object's domains suffices
 * (reading, updating or deleting an associated object); "every": each domain must be granted
 * (creating or extending an object's reach). An object with no domain needs the `:all` scope.
 */
export function requireDomains(
  key: KeyData,
  family: string,
  verb: string,
  domains: readonly string[],
  mode: "any" | "every",
): void {
  const g = grant(key, family, verb);
  if (g.all) return;
  const all = `${family}:${verb}:all`;
  if (domains.length === 0) throw forbidden(`missing scope: ${all} is required for an object not tied to a domain`);
  const missing = domains.filter((d) => !g.domains.has(d));
  const ok = mode === "any" ? missing.length < domains.length : missing.length === 0;
  if (!ok) {
    const need = (mode === "any" ? domains : missing).map((d) => `${family}:${verb}:${d}`);
    const joined = mode === "any" ? need.join(" or ") : need.join(" and ");
    throw forbidden(`missing scope: ${all} or ${joined} is required`);
  }
}

/** True when the key may see an object tied to `domains` (list filtering). */
export function sees(g: DomainGrant, domains: readonly string[]): boolean {
  return g.all || domains.some((d) => g.domains.has(d));
}
