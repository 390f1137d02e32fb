// What this provider process has been told about each resource's object in the stack's state, so
// that a create can tell a replacement from a first create.
//
// Why a create needs it: a replacement's create has the same URN as the object it replaces, and
// with the same fixed fields it derives the same Idempotency-Key (operations/createKey.ts). Within
// the service's 24 h record lifetime the service then replays the creation of the object being
// replaced — still live under create-before-delete — and a provider that recorded it as the new
// object would hand the engine the old id back, which the engine then deletes: the resource's only
// object. The engine's calls say which object the state holds, but not to create:
// - check gets the state's old inputs: a resource with any is in the state, so a create of it is a
//   replacement (a first create, and the rerun of a killed one, have none);
// - diff, update and a native delete name the state's id.
// A targeted replacement (`--replace`, `replaceWith`, `deletedWith`) gets neither: the engine checks
// it without old inputs and skips diff (pkg/resource/deploy/step_generator.go, 3.274.1), so its
// create looks exactly like the rerun of a killed first create, and within 24 h the service answers
// it with the replaced object. That cannot be told at the create; it is at the delete that follows:
// an id a create of this run returned from an earlier creation is never deleted (operations/delete.ts).
// Each run starts its own provider processes, and each keeps one provider per kind
// (provider/runtime.ts), so this is one run's knowledge of one kind's resources, nothing more.

interface Known {
  /** The state holds an object for this URN (check was given its old inputs). */
  inState: boolean;
  /** The state's ids for this URN, as diff, update or a native delete named them. */
  ids: Set<string>;
  /** The state's `adoptId` input: the object that resource was made from, not by a create. */
  adoptedAs?: string;
}

/** Inputs the engine passes for every resource, in the state or not: they say nothing of the state. */
const IDENTITY = new Set(["__urn", "__stackSalt", "__provider"]);

export class StateObjects {
  private readonly known = new Map<string, Known>();
  /**
   * Ids a create returned here that a replacement made or that existed before the create (a replay
   * or a proof named it). The engine deletes a replaced object after its replacement's create; if
   * that were one of these, it would delete the resource's only object. operations/delete.ts refuses.
   */
  private readonly recorded = new Set<string>();

  private entry(urn: string): Known {
    let k = this.known.get(urn);
    if (!k) this.known.set(urn, (k = { inState: false, ids: new Set() }));
    return k;
  }

  /** Check's old inputs: a resource that has any is in the stack's state. */
  sawOldInputs(urn: string | undefined, olds: Record<string, unknown>): void {
    if (!urn || !Object.keys(olds).some((key) => !IDENTITY.has(key))) return;
    const k = this.entry(urn);
    k.inState = true;
    k.adoptedAs = typeof olds.adoptId === "string" ? olds.adoptId : undefined;
  }

  /** An engine call that named the state's id for this URN (diff, update, a native delete). */
  sawStateId(urn: string | undefined, id: string): void {
    if (!urn || !id) return;
    const k = this.entry(urn);
    k.inState = true;
    k.ids.add(id);
  }

  /** What this run knows of the state's object for `urn`. */
  stateObjectOf(urn: string): Readonly<Known> {
    return this.known.get(urn) ?? { inState: false, ids: new Set() };
  }

  recordedByCreate(id: string): void {
    this.recorded.add(id);
  }

  wasRecordedByCreate(id: string): boolean {
    return this.recorded.has(id);
  }
}
