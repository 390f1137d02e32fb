// A create whose object exists but is not yet what the program says, handed to the engine as a
// resource initialization failure: the object's id and its actual properties (partial state), and
// why. The engine records the object in the stack's state with those properties, fails the run with
// the reasons, and at the next `pulumi up` diffs the recorded object against the program and updates
// it (an init failure alone also calls for an update: pkg/resource/deploy/step_generator.go,
// 3.274.1). Both faces carry it as pulumirpc.ErrorResourceInitFailed: the dynamic-provider host
// packs any thrown error with `id`, `properties` and `reasons` so (@pulumi/pulumi
// cmd/dynamic-provider grpcResponseFromError), the native plugin in native/server.ts.
//
// Why a create returns one (operations/create.ts takeOver): the object an interrupted run made and
// did not record, proven this stack's through its idempotency key, with other values in fields that
// change in place. Converging it inside the create would change it before any state names it; a
// run killed after that change leaves an object whose first body — what its key answers — is held
// by nothing the next run can read, so the next proof fails and a twin is made. Recorded first, it
// is named by the state, and the update that converges it can be killed any number of times. A
// rotation's create runs inside an update (rotating/index.ts): that update fails the same way, with
// the whole rotated state, which the engine records with the old inputs (engine/update.go).
import type { Props } from "./declaration";

export class InitFailure extends Error {
  /** What the engine shows: it reports an init failure by its reasons, not the error's message. */
  readonly reasons: string[];
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Props,
  ) {
    super(message);
    this.reasons = [message];
  }
}

/**
 * Whether `e` is an init failure, by shape: the dynamic-provider host tests the same fields, and a
 * provider process's own module graph (the history tester's, test/histories/world.ts) has its own class.
 */
export function isInitFailure(e: unknown): e is InitFailure {
  if (!(e instanceof Error)) return false;
  const { id, properties, reasons } = e as Partial<InitFailure>;
  return typeof id === "string" && id !== "" && typeof properties === "object" && Array.isArray(reasons);
}

/** The same failure with other properties (secrets marked; a rotating credential's whole state). */
export function withProperties(e: InitFailure, properties: Props): InitFailure {
  return Object.assign(e, { properties });
}

/**
 * A `.catch` that rethrows any failure, an init failure with its properties passed through `map`
 * first: they go into the stack's state, so each face marks their secrets as it marks outputs.
 */
export const mapInitFailure =
  (map: (properties: Props) => Props) =>
  (e: unknown): never => {
    if (isInitFailure(e)) throw withProperties(e, map(e.properties));
    throw e;
  };
