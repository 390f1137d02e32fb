// The scopes a key needs to manage (create, read, update, delete) one object of a sub account, in
// the narrowest form the service accepts (docs/contract/scopes.md, its
// #scope-each-endpoint-requires): a `{domain}` scope when the object is tied to a domain — a domain itself, a route
// whose recipient is in a domain, a `scoped` webhook or SMTP credential listing domains — and the
// `:all` scope only for objects tied to no domain (a route with no recipient, a global webhook).
// Each managed kind's contract file says which (its facts' `manage`, provider/api/kind.ts); this
// puts them together. The Tenant builds its bootstrap key from this, and the policy pack uses it
// to tell a management key's needed scopes from broad ones. The SDK loads it on first use (it
// loads the contract files, hence zod).
import { type ManagedInputs, type Management, narrowest } from "./kind";
import { KIND_FACTS, type ManagedKind } from "./kinds";

/** The inputs a managed kind's scopes depend on. */
type InputsOf<K extends ManagedKind> = (typeof KIND_FACTS)[K] extends { manage: Management<infer I> }
  ? ManagedInputs<I>
  : never;

/** A managed object: its kind and the inputs its scopes depend on. */
export type ManagedObject = { [K in ManagedKind]: { kind: K } & InputsOf<K> }[ManagedKind];

/** The scopes that manage `o`, sorted. */
export function scopesToManage(o: ManagedObject): string[] {
  const { manage } = KIND_FACTS[o.kind] as { manage: Management };
  return [...new Set(manage.scopes(o as ManagedInputs<Record<string, never>>))].sort();
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
