// What the service answered a create's POST under this resource's Idempotency-Key, named for what
// the answer proves (docs/contract/idempotency.md). A create decides on these alone, in one switch
// (create.ts); nothing else in a create reads a status or an error category.
import { isConflict, isIdempotencyMismatch, wasReplayed, wasRetried } from "../api";
import type { Ctx, Props } from "../declaration";
import { tracked } from "../uncertainCreate";
import type { KindContext } from "./context";
import { withScopeHint } from "./scopeHint";

export type Answer =
  /**
   * Executed now under this stack's key: the object is this stack's. `strayPossible`: an earlier
   * attempt of the same request was answered with a 5xx, which the service does not store (rule 6);
   * if that attempt had committed, its object exists too, and no key names it.
   */
  | { kind: "created"; record: Record<string, unknown>; strayPossible: boolean }
  /** The key's stored creation, replayed: the object it names is this stack's (it may be gone since). */
  | { kind: "replayed"; record: Record<string, unknown> }
  /** The key's stored 4xx, replayed (rule 5): that attempt created nothing. */
  | { kind: "storedFailure"; error: unknown }
  /** 422: an earlier attempt of this resource used the key with another body (rule 2). */
  | { kind: "otherPayload"; error: unknown }
  /**
   * A terminal 409 on a create whose answer carries a secret: the key created an object whose
   * secret can no longer be replayed (rule 7), and the service does not say which object.
   */
  | { kind: "secretExpired"; error: unknown }
  /** A 409 on a kind whose name the service keeps unique: an object of that name exists. */
  | { kind: "nameTaken"; error: unknown; afterRetry: boolean }
  /**
   * Anything else: the create failed. `strayPossible`: a 409 after a retry — the earlier attempt
   * may have committed before its 5xx (rule 6) and the 409 be its object (a membership's "already
   * a member"), which no key names.
   */
  | { kind: "refused"; error: unknown; strayPossible: boolean };

/** One create of one resource: what every stage of it needs. */
export interface Attempt {
  k: KindContext;
  ctx: Ctx;
  inputs: Props;
  /** The collection's path and the program's POST body (API names). */
  path: string;
  body: Record<string, unknown>;
  /** The collection in this process's tables of held objects and POSTs in flight (context.ts collectionOf). */
  collection: string;
  /** Ids already reported as likely leftovers by this create (each is said once). */
  reported: Set<string>;
  /**
   * Another object found in the place of the one this stack's key made (a natural key re-used since:
   * fetchRecord.ts): what the create's failure names.
   */
  displacedBy?: Record<string, unknown>;
}

/** One POST of `body` under `key` (the client retries it with the same key), as an Answer. */
export async function send(attempt: Attempt, body: Record<string, unknown>, key: string): Promise<Answer> {
  const { k, ctx, inputs } = attempt;
  const { declaration } = k;
  try {
    const { data, replayed, uncertain } = await tracked(
      attempt.collection,
      withScopeHint(k, "write", inputs, () =>
        ctx.api.post(attempt.path, body, declaration.created, { idempotencyKey: key }),
      ),
    );
    return replayed
      ? { kind: "replayed", record: data }
      : { kind: "created", record: data, strayPossible: !!uncertain };
  } catch (error) {
    if (isIdempotencyMismatch(error)) return { kind: "otherPayload", error };
    if (wasReplayed(error)) return { kind: "storedFailure", error };
    if (isConflict(error) && declaration.uniqueName) return { kind: "nameTaken", error, afterRetry: wasRetried(error) };
    if (isConflict(error) && Object.keys(declaration.createOnly ?? {}).length > 0) {
      return { kind: "secretExpired", error };
    }
    return { kind: "refused", error, strayPossible: isConflict(error) && wasRetried(error) };
  }
}
