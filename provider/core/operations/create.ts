// create: sends a derived Idempotency-Key (see core/idempotencyKey.ts) and survives replays of
// objects that were deleted since and of failures that may no longer hold; `adoptId` adopts an
// existing object instead of creating one.
import { isConflict, isIdempotencyMismatch, wasReplayed } from "../api";
import { camelToSnake } from "../casing";
import { requireSavedSalt } from "../freshSalt";
import { deriveIdempotencyKey } from "../idempotencyKey";
import type { Props } from "../declaration";
import { claim, tracked } from "../uncertainCreate";
import { adopt } from "./adopt";
import { recoverConflict } from "./conflict";
import { identityBody, recoverMismatch } from "./mismatch";
import { type KindContext, collectionOf, connect } from "./context";
import { fetchRecord } from "./fetchRecord";
import { finishCreate } from "./finishCreate";
import { what } from "./names";
import { withScopeHint } from "./scopeHint";
import { sweepTwins } from "./twins";

/**
 * How many derived idempotency keys one create may walk through. Every earlier attempt of the same
 * create within the service's 24 h record lifetime leaves one stored outcome on its key: the creation
 * of an object deleted since, or a 4xx (docs/contract/idempotency.md#rule-5). A create steps past each in turn (one
 * cheap replayed request each) to the first key the service has not seen; this bound allows about one
 * destroyed or failed attempt per hour of that lifetime before giving up with a clear message.
 */
export const MAX_GENERATIONS = 32;

export async function create(k: KindContext, inputs: Props): Promise<{ id: string; outs: Props }> {
  const { declaration } = k;
  if (inputs.adoptId) return adopt(k, inputs);
  if (!inputs.__urn)
    throw new Error(`${declaration.kind}: missing resource identity; create it through the pulumi-txmail SDK classes.`);
  requireSavedSalt(inputs.__stackSalt, what(declaration.kind, inputs));
  const { conn, api } = connect(k, inputs);
  const path = declaration.collectionPath(conn, inputs);
  const body = createBody(k, inputs);
  let replayedFailure: unknown; // the last key's answer, when it was a stored failure
  for (let generation = 0; generation < MAX_GENERATIONS; generation++) {
    // Provider-local replace triggers (e.g. `rotation`) are part of the identity: a rotated key
    // must not replay the creation of the key it replaces.
    // Only what cannot change in place: the key is this resource's creation slot, so an earlier
    // attempt with other updatable values answers 422 instead of leaving a second object
    // (mismatch.ts).
    const identity = {
      body: identityBody(k, body),
      local: Object.fromEntries(k.localFields.map((f) => [f, inputs[f]])),
    };
    const idempotencyKey = deriveIdempotencyKey({
      stackSalt: inputs.__stackSalt,
      urn: inputs.__urn,
      accountId: conn.accountId,
      method: "POST",
      path,
      body: identity,
      generation,
    });
    const collection = collectionOf(k, conn, inputs);
    const started = Date.now();
    replayedFailure = undefined;
    let posted: { data: Record<string, unknown>; replayed: boolean; uncertain?: boolean };
    try {
      posted = await tracked(
        collection,
        withScopeHint(k, "write", inputs, () => api.post(path, body, declaration.created, { idempotencyKey })),
      );
    } catch (err) {
      if (isIdempotencyMismatch(err)) {
        const recovered = await recoverMismatch(k, { conn, api }, inputs, collection, body);
        if (recovered === "next-key") continue;
        return recovered;
      }
      if (wasReplayed(err)) {
        // A stored 4xx of an earlier attempt (e.g. a 403 before a scope was added to the key):
        // it created nothing, so the next derived key cannot duplicate anything, and its answer
        // is today's.
        replayedFailure = err;
        continue;
      }
      const recovered = await recoverConflict(k, err, { conn, api }, inputs, collection, started);
      if (recovered === "next-key") continue;
      if (recovered) return recovered;
      if (isConflict(err) && declaration.conflictHint) {
        throw Object.assign(
          new Error(
            `${what(declaration.kind, inputs)}: ${declaration.conflictHint(inputs)} (Service message: ${(err as Error).message})`,
          ),
          {
            category: "conflict",
          },
        );
      }
      throw err;
    }
    const { data, replayed } = posted;
    const id = k.idOf(data);
    if (replayed && !(await fetchRecord(k, { conn, api }, inputs, id))) {
      // The service replayed the creation of an object deleted since (same URN and inputs
      // within the 24 h record lifetime): move to the next derived key.
      continue;
    }
    claim(collection, id); // before the sweep, so a concurrent sweep never takes it for a twin
    if (posted.uncertain) await sweepTwins(k, { conn, api }, inputs, collection, id, started);
    return finishCreate(k, { conn, api }, inputs, collection, id, data);
  }
  if (replayedFailure !== undefined) {
    throw new Error(
      `${what(declaration.kind, inputs)}: the service answered each of ${MAX_GENERATIONS} derived idempotency keys with a stored ` +
        `outcome of an earlier attempt (kept for 24 h); giving up. The last one: ${(replayedFailure as Error).message}`,
    );
  }
  throw new Error(
    `${declaration.kind}: the service keeps replaying creations of deleted objects; giving up after ${MAX_GENERATIONS} keys.`,
  );
}

/** The POST body: the API fields the program set, under their API names. */
function createBody(k: KindContext, props: Props): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of k.declaration.apiFields) if (props[f] !== undefined) body[camelToSnake(f)] = props[f];
  return body;
}
