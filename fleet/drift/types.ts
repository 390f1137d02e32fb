// What `txmail-fleet drift` finds, as the workers send it and the report shows it. Values of
// secrets never appear: a secret field is shown as SECRET, and only whether it changed is told.
import type { Kind } from "../../provider/api/kinds";

/** How a secret value is shown in every report (the engine's own mask). */
export const SECRET = "[secret]";

/** One field whose value at the service differs from the value the stack recorded. */
export interface FieldChange {
  field: string;
  /** What the stack recorded (SECRET for a secret). */
  recorded: unknown;
  /** What the service holds now (SECRET for a secret). */
  service: unknown;
}

/**
 * A resource of a shard stack whose object changed outside Pulumi: `changed` (fields differ),
 * `deleted` (gone at the service), or `failed` (its refresh failed: not checked).
 */
export interface ResourceDrift {
  tenant: string;
  /** The resource's name in the stack (`acme-webhook-events`). */
  resource: string;
  kind: Kind;
  urn: string;
  id: string;
  status: "changed" | "deleted" | "failed";
  fields: FieldChange[];
  /** Why its refresh failed. */
  error?: string;
}

/** A txmail object a shard stack manages: its kind, id and tenant. */
export interface ManagedObject {
  tenant: string;
  kind: Kind;
  id: string;
}

/** An object at the service that no shard stack manages. */
export interface UnmanagedObject {
  kind: Kind;
  /** The tenant whose sub account holds it; undefined for the parent account's own objects. */
  tenant?: string;
  id: string;
  /** What a person calls it (label, name, address). */
  title: string;
  /** The line that adopts it into a stack. */
  importLine: string;
  /** What the policy pack would refuse about it (an allow-all key made by hand), if anything. */
  policy?: string;
}

/** A family of objects the inventory could not list, and why (a scope the tenant's key lacks). */
export interface NotListed {
  tenant?: string;
  kind: Kind;
  reason: string;
}

/** One shard stack's answer. */
export interface ShardDrift {
  shard: string;
  tenants: string[];
  /** Set when the shard could not be checked at all. */
  error?: string;
  drift: ResourceDrift[];
  unmanaged: UnmanagedObject[];
  notListed: NotListed[];
  /** Every object the shard manages (for the account-wide inventory). */
  managed: ManagedObject[];
  /** Requests the inventory sent (lists), for the report's count. */
  listCalls: number;
}
