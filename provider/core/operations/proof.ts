// Proof through the key, after a 422: the key is this resource's creation slot (createKey.ts), so an
// earlier attempt of this very resource — in this stack: the salt is its own — used it with other
// values that change in place. That happens when a run is killed after the service committed a
// create and the program changed before the rerun, or when a resource is removed and added back
// with other values within the record lifetime. Which object, if any, that attempt made, only the
// service can say, and it says it only to the request that attempt sent: the key, the path and the
// same body (rule 2).
//
// So each candidate (same name and fixed fields, made in the last 24 h: candidates.ts) is offered
// back as that request: the program's body with the candidate's reported values. If the service
// replays a creation, the object it names is this stack's — whether or not it is the candidate —
// and is taken over (create.ts); if that object is gone, nothing of this resource is left and the
// next key is safe. A candidate whose body was not that request gets another 422 and is left alone.
// When no candidate is proven, they are reported (leftovers.ts) and never touched.
import { camelToSnake } from "../casing";
import { deepEqual } from "../canonicalJson";
import type { Attempt } from "./answer";
import { send } from "./answer";
import { earlierAttempts } from "./candidates";
import { reportedFields } from "./createKey";
import { identify, identityOf } from "./fetchRecord";

/** How many candidates one 422 may offer back (one POST each, at the account's pace). */
export const MAX_PROOFS = 10;

export type Earlier =
  /** The service answered this stack's key with this object: this stack's, to take over. */
  | { kind: "ours"; record: Record<string, unknown> }
  /** The key's object no longer exists: nothing of this resource is left. */
  | { kind: "gone" }
  /** The key's stored outcome is a failure: that attempt made nothing. */
  | { kind: "madeNothing" }
  /** Nothing proven: the candidates are reported, never touched. */
  | { kind: "unproven"; candidates: Record<string, unknown>[]; why: string };

export async function proveEarlierAttempt(attempt: Attempt, key: string): Promise<Earlier> {
  const found = await earlierAttempts(attempt);
  const unproven = (candidates: Record<string, unknown>[], why: string): Earlier => ({
    kind: "unproven",
    candidates,
    why,
  });
  for (const candidate of found.slice(0, MAX_PROOFS)) {
    const rebuilt = rebuiltBody(attempt, candidate);
    if (deepEqual(rebuilt, attempt.body)) continue; // the program's own body was refused: not that request
    const answer = await send(attempt, rebuilt, key);
    switch (answer.kind) {
      case "replayed":
      case "created": // the record expired meanwhile and the request ran afresh, under this stack's key
        return (await exists(attempt, attempt.k.idOf(answer.record), answer.record))
          ? { kind: "ours", record: answer.record }
          : { kind: "gone" };
      case "storedFailure":
        return { kind: "madeNothing" };
      case "otherPayload":
        continue;
      case "secretExpired":
        return unproven(
          found.filter((c) => deepEqual(rebuiltBody(attempt, c), rebuilt)),
          "this stack's idempotency key created an object with exactly these values, but its answer carried a " +
            "secret the service replays for 5 minutes only, so it no longer says which object",
        );
      case "nameTaken":
      case "refused":
        return unproven(found, "the service refused the rebuilt request, so it did not say which object the key made");
    }
  }
  return unproven(
    found,
    found.length > MAX_PROOFS
      ? `more objects look alike than the provider offers back (${MAX_PROOFS})`
      : "none was the request an earlier attempt sent under this stack's key (values changed since, or another stack's)",
  );
}

/**
 * The request an earlier attempt would have sent to make `candidate`: the program's body (its fields,
 * in its order) with the candidate's values where the service reports them back.
 */
function rebuiltBody(attempt: Attempt, candidate: Record<string, unknown>): Record<string, unknown> {
  const { k, body } = attempt;
  const outputs = k.outputsOf(candidate);
  const reported = new Set(reportedFields(k.declaration));
  const rebuilt: Record<string, unknown> = {};
  for (const f of k.declaration.apiFields) {
    const name = camelToSnake(f);
    if (body[name] === undefined) continue;
    rebuilt[name] = reported.has(f) && outputs[f] !== undefined ? outputs[f] : body[name];
  }
  return rebuilt;
}

/**
 * The object the key made (`made`: the service's record of it) exists and still counts as one (a
 * soft-deleted sub account does not). Another object in its place is not it (`attempt.displacedBy`).
 */
export async function exists(attempt: Attempt, id: string, made: Record<string, unknown>): Promise<boolean> {
  const { k, ctx, inputs } = attempt;
  const found = await identify(k, ctx, { ...inputs, ...identityOf(k, made) }, id);
  if (found.kind === "another") attempt.displacedBy = found.record;
  const record = found.kind === "this" ? found.record : undefined;
  const { listing } = k.declaration;
  return record !== undefined && (!("live" in listing) || !listing.live || listing.live(record, Date.now()));
}
