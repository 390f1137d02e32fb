// The scopes a key needs to manage (create, read, update, delete) one object of a sub account, in
// the narrowest form the service accepts (docs/contract/scopes.md, its
// #scope-each-endpoint-requires): a `{domain}` scope when the object is tied to a domain — a domain itself, a route
// whose recipient is in a domain, a `scoped` webhook or SMTP credential listing domains — and the
// `:all` scope only for objects tied to no domain (a route with no recipient, a global webhook).
// `domains:read` and `domains:write` have no `{domain}` form. The Tenant builds its bootstrap key
// from this, and the policy pack uses it to tell a management key's needed scopes from broad ones.
// Plain values only (no Pulumi outputs, no zod): `import "pulumi-txmail"` stays light.
import type { KIND_FACTS, Kind } from "./kinds";
import { parseScope } from "./scopes";

export type ManagedObject =
  | { kind: "Domain"; domain: string }
  | { kind: "DomainVerification" }
  | { kind: "AccountMember" }
  | { kind: "Suppression" }
  | { kind: "Route"; recipient?: string }
  | { kind: "Webhook" | "SmtpCredential"; scope?: string; domains?: readonly string[] };

/** The kinds the list of kinds says a key manages (provider/api/kinds.ts). */
type ManagedKind = { [K in Kind]: (typeof KIND_FACTS)[K] extends { managed: true } ? K : never }[Kind];
/** Compiles only while each managed kind has a form above and no other kind has one. */
const sameKinds: [ManagedKind, ManagedObject["kind"]] extends [ManagedObject["kind"], ManagedKind] ? true : never =
  true;
void sameKinds;

const FAMILY = { Route: "routes", Webhook: "webhooks", SmtpCredential: "smtp-credentials" } as const;

/**
 * Members and suppressions have no `{domain}` form. Not `suppressions:wipe`: the provider deletes
 * one suppression at a time.
 */
const ACCOUNT_WIDE = {
  AccountMember: ["accounts:members:add", "accounts:members:read", "accounts:members:remove"],
  Suppression: ["suppressions:delete", "suppressions:read", "suppressions:write"],
} as const;
const VERBS = ["read", "write", "delete"] as const;

/** `prefix` + `domain` when that is a valid `{domain}` scope, else `prefix` + `all`. */
function narrowest(prefix: string, domain: string | undefined): string {
  const scoped = domain === undefined ? undefined : `${prefix}${domain.trim().toLowerCase()}`;
  return scoped !== undefined && parseScope(scoped)?.domain !== undefined ? scoped : `${prefix}all`;
}

/** The domains an object is tied to, as the service associates them (docs/contract/scopes.md#domain-association). */
function domainsOf(
  o: Extract<ManagedObject, { kind: "Route" | "Webhook" | "SmtpCredential" }>,
): (string | undefined)[] {
  if (o.kind === "Route") {
    const at = (o.recipient ?? "").lastIndexOf("@");
    return [at < 0 ? undefined : (o.recipient ?? "").slice(at + 1)];
  }
  const domains = o.scope === "scoped" ? (o.domains ?? []) : [];
  return domains.length > 0 ? [...domains] : [undefined];
}

/** The scopes that manage `o`, sorted. */
export function scopesToManage(o: ManagedObject): string[] {
  // check-dns is a domains write; the domain is read first. Neither has a `{domain}` form.
  if (o.kind === "DomainVerification") return ["domains:read", "domains:write"];
  if (o.kind === "Domain") return ["domains:read", "domains:write", narrowest("domains:delete:", o.domain)].sort();
  if (o.kind === "AccountMember" || o.kind === "Suppression") return [...ACCOUNT_WIDE[o.kind]];
  const family = FAMILY[o.kind];
  const out = new Set<string>();
  for (const domain of domainsOf(o)) for (const verb of VERBS) out.add(narrowest(`${family}:${verb}:`, domain));
  return [...out].sort();
}

/**
 * A key with no objects to manage still needs one scope (the service requires at least one): a
 * read-only one that shows the sub account's domains and changes nothing.
 */
export const IDLE_KEY_SCOPES: readonly string[] = ["domains:read"];

/** The union of what every object needs (sorted), or IDLE_KEY_SCOPES when there is none. */
export function scopesToManageAll(objects: readonly ManagedObject[]): string[] {
  if (objects.length === 0) return [...IDLE_KEY_SCOPES];
  return [...new Set(objects.flatMap(scopesToManage))].sort();
}

/** The send scope for a domain (`messages:send:all` when there is none or it is not a valid name). */
export function sendScope(domain: string | undefined): string {
  return narrowest("messages:send:", domain);
}
