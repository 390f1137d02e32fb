// What `txmail-fleet rotate` reads before it runs anything: each credential on a schedule in a
// shard's state (exported without its secrets), and what its next up would do — the provider's own
// decision (provider/core/rotating/due.ts), at the same instant, with the same early-rotation period.
// Only the shards holding something due are then run, and in them only the credentials due (and
// what depends on them) are targeted. Pure: the exports are run.ts's.
import { dueWork } from "../../provider/core/rotating/due";
import { isSchedule } from "../../provider/core/rotating/schedule";
import { tenantOfParent } from "../html/runChanges";
import { type ExportedState, nameOf } from "../shardState";
import type { PlannedCredential } from "./types";

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/**
 * The credentials on a schedule of one shard's state (of `tenants` only, when given), each with
 * the work due at `now`, sorted by tenant and resource.
 */
export function planShard(
  state: ExportedState,
  shard: string,
  at: { now: number; olderThanMs?: number; tenants?: ReadonlySet<string> },
): PlannedCredential[] {
  const planned: PlannedCredential[] = [];
  for (const r of state.deployment.resources ?? []) {
    if (!r.custom || r.delete) continue;
    const outputs = r.outputs ?? {};
    // The schedule the last run applied (its inputs; a rotating resource keeps it in its outputs too).
    const schedule = r.inputs?.rotation ?? outputs.rotation;
    // A rotating resource on a schedule names its current object; a legacy string trigger does not.
    if (!isSchedule(schedule) || typeof outputs.currentId !== "string") continue;
    const tenant = tenantOfParent(r.parent);
    if (at.tenants && !at.tenants.has(tenant)) continue;
    const due = dueWork(outputs, schedule, at.now, at.olderThanMs);
    planned.push({
      tenant,
      shard,
      resource: nameOf(r.urn),
      urn: r.urn,
      kind: r.type.slice(r.type.lastIndexOf(":") + 1),
      ...(due && { due }),
      rotations: typeof outputs.rotations === "number" ? outputs.rotations : 0,
      hasPrevious: typeof outputs.previousId === "string",
      rotatedAt: text(outputs.rotatedAt),
      nextRotationAt: text(outputs.nextRotationAt),
      previousRevokeAt: text(outputs.previousRevokeAt),
    });
  }
  return planned.sort((a, b) => compare(a.tenant, b.tenant) || compare(a.resource, b.resource));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The URNs a shard's rotate run targets: its credentials due. */
export function targetsOf(planned: readonly PlannedCredential[], shard: string): string[] {
  return planned.filter((c) => c.shard === shard && c.due).map((c) => c.urn);
}
