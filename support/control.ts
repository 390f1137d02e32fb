// The emulator's control surface (counters, faults, clock, request log, state dump) for e2e tests and benches.
// The one client is emulator/control.ts; this adds what e2e tests ask of its answers.
import type { RequestLogSnapshot, StateDump } from "../emulator/control";
import { OBJECT_KINDS, type ObjectKind } from "../provider/api/kinds";
import { declarations } from "../provider/resources";
import { DUMP_SECTIONS, type ObjectType } from "../emulator/store/objects";
export { controlClient, type EmulatorControl } from "../emulator/control";

/** Where the kinds whose objects the dump does not list as their own section's records are. */
const PLACED: Partial<Record<ObjectKind, (d: StateDump) => string[]>> = {
  ApiKey: (d) => d.api_keys.filter((k) => k.account_id === d.parent_account_id).map((k) => k.id),
  SubAccount: (d) => d.accounts.filter((a) => a.parent_account_id !== null && a.status !== "deleted").map((a) => a.id),
  SubAccountApiKey: (d) => d.api_keys.filter((k) => k.account_id !== d.parent_account_id).map((k) => k.id),
  // Every account has its owner as a member; only the others can be resources.
  AccountMember: (d) =>
    d.members
      .filter((m) => !d.accounts.some((a) => a.id === m.account_id && a.owner_user_id === m.user_id))
      .map((m) => m.user_id),
};

/**
 * Where a kind's live objects are in the emulator's state dump: the section that stores its
 * record's `object` type (its handler's `STORED`, emulator/store/objects.ts), unless PLACED says otherwise. Throws, naming
 * this file, for a kind that is in neither (test/unit/kinds/checklist.test.ts asks for every kind).
 */
export function objectsOf(kind: ObjectKind): (d: StateDump) => string[] {
  const placed = PLACED[kind];
  if (placed) return placed;
  const shape = (declarations[kind].record as unknown as { shape?: { object?: { value?: unknown } } }).shape;
  const type = shape?.object?.value;
  const section = typeof type === "string" && Object.hasOwn(DUMP_SECTIONS, type) && DUMP_SECTIONS[type as ObjectType];
  if (!section) {
    throw new Error(
      `support/control.ts: the state dump has no section of ${kind}'s records (object ${JSON.stringify(type)}); ` +
        "store them under that type (the `STORED` of its handler file in emulator/handlers), or say where they are in PLACED",
    );
  }
  return (d) => (d[section] as Array<{ id: string }>).map((x) => x.id);
}

/** Every live object in the service's state dump, with the Pulumi resource kind it corresponds to. */
export function serviceObjects(d: StateDump): Array<{ kind: ObjectKind; id: string }> {
  return OBJECT_KINDS.flatMap((kind) => objectsOf(kind)(d).map((id) => ({ kind, id })));
}

/**
 * Arrival position (`seq`) of the one request with this method, exact path and status in the
 * emulator's request log: fails when there is none, more than one, or the log lost entries, so an
 * order asserted with it is never an accident of a missing or repeated request.
 */
export function seqOf(log: RequestLogSnapshot, method: string, path: string, status: number): number {
  if (log.dropped > 0) throw new Error(`the request log dropped ${log.dropped} entries; clear it closer to the step`);
  const hits = log.requests.filter((r) => r.method === method && r.path === path && r.status === status);
  if (hits.length !== 1) {
    const seen = log.requests.map((r) => `${r.seq} ${r.method} ${r.path} ${r.status}`).join("\n");
    throw new Error(`expected one ${method} ${path} answered ${status}, found ${hits.length}; the log:\n${seen}`);
  }
  return hits[0]!.seq;
}
