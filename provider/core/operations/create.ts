// create: sends a derived Idempotency-Key (see core/idempotencyKey.ts) and survives replays of
// objects that were deleted since and of failures that may no longer hold; `adoptId` adopts an
// existing object instead of creating one.
import { isConflict, isIdempotencyMismatch, wasReplayed } from "../api";
import { camelToSnake } from "../casing";
import { requireSavedSalt } from "../freshSalt";
import { deriveIdempotencyKey } from "../idempotencyKey";
import type { Ctx, Props } from "../declaration";
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

type Created = { id: string; outs: Props };

export async function create(k: KindContext, inputs: Props): Promise<Created> {
  const { declaration } = k;
  if (inputs.adoptId) return adopt(k, inputs);
  const urn = inputs.__urn;
  if (!urn)
    throw new Error(`${declaration.kind}: missing resource identity; create it through the pulumi-txmail SDK classes.`);
  requireSavedSalt(inputs.__stackSalt, what(declaration.kind, inputs));
  const ctx = connect(k, inputs);
  const { conn, api } = ctx;
  const path = declaration.collectionPath(conn, inputs);
  const body = createBody(k, inputs);
  let replayedFailure: unknown; // the last key's answer, when it was a stored failure
  for (let generation = 0; generation < MAX_GENERATIONS; generation++) {
    const idempotencyKey = idempotencyKeyOf(k, inputs, { urn, accountId: conn.accountId, path, body }, generation);
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
      const recovered = await recoverFailedPost(k, err, ctx, inputs, collection, body, started);
      if (recovered === "replayed-failure") replayedFailure = err;
      if (recovered === "next-key" || recovered === "replayed-failure") continue;
      return recovered;
    }
    const { data, replayed } = posted;
    const id = k.idOf(data);
    if (replayed && !(await fetchRecord(k, ctx, inputs, id))) {
      // The service replayed the creation of an object deleted since (same URN and inputs
      // within the 24 h record lifetime): move to the next derived key.
      continue;
    }
    claim(collection, id); // before the sweep, so a concurrent sweep never takes it for a twin
    if (posted.uncertain) await sweepTwins(k, ctx, inputs, collection, id, started);
    return finishCreate(k, ctx, inputs, collection, id, data);
  }
  throw outOfKeys(k, inputs, replayedFailure);
}

/** The Idempotency-Key of this create's attempt number `generation`. */
function idempotencyKeyOf(
  k: KindContext,
  inputs: Props,
  post: { urn: string; accountId: string; path: string; body: Record<string, unknown> },
  generation: number,
): string {
  // Provider-local replace triggers (e.g. `rotation`) are part of the identity: a rotated key
  // must not replay the creation of the key it replaces.
  // Only what cannot change in place: the key is this resource's creation slot, so an earlier
  // attempt with other updatable values answers 422 instead of leaving a second object
  // (mismatch.ts).
  const identity = {
    body: identityBody(k, post.body),
    local: Object.fromEntries(k.localFields.map((f) => [f, inputs[f]])),
  };
  return deriveIdempotencyKey({
    stackSalt: inputs.__stackSalt,
    urn: post.urn,
    accountId: post.accountId,
    method: "POST",
    path: post.path,
    body: identity,
    generation,
  });
}

/**
 * After a failed POST: the object it may have made after all, "next-key" to try the next derived
 * key, "replayed-failure" for a stored failure of an earlier attempt (next key too), or it throws.
 */
async function recoverFailedPost(
  k: KindContext,
  err: unknown,
  ctx: Ctx,
  inputs: Props,
  collection: string,
  body: Record<string, unknown>,
  started: number,
): Promise<Created | "next-key" | "replayed-failure"> {
  const { declaration } = k;
  if (isIdempotencyMismatch(err)) return recoverMismatch(k, ctx, inputs, collection, body);
  // A stored 4xx of an earlier attempt (e.g. a 403 before a scope was added to the key):
  // it created nothing, so the next derived key cannot duplicate anything, and its answer
  // is today's.
  if (wasReplayed(err)) return "replayed-failure";
  const recovered = await recoverConflict(k, err, ctx, inputs, collection, started);
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

/** Why a create gave up after MAX_GENERATIONS keys. */
function outOfKeys(k: KindContext, inputs: Props, replayedFailure: unknown): Error {
  if (replayedFailure !== undefined) {
    return new Error(
      `${what(k.declaration.kind, inputs)}: the service answered each of ${MAX_GENERATIONS} derived idempotency keys with a stored ` +
        `outcome of an earlier attempt (kept for 24 h); giving up. The last one: ${(replayedFailure as Error).message}`,
    );
  }
  return new Error(
    `${k.declaration.kind}: the service keeps replaying creations of deleted objects; giving up after ${MAX_GENERATIONS} keys.`,
  );
}

/** The POST body: the API fields the program set, under their API names. */
function createBody(k: KindContext, props: Props): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of k.declaration.apiFields) if (props[f] !== undefined) body[camelToSnake(f)] = props[f];
  return body;
}
