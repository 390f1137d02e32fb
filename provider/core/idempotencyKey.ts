// Stable Idempotency-Key derivation.
//
// The key is a hash of who is creating (the stack's salt, the resource's URN, the target account)
// and what (method, path, and what the caller passes as `body`: the create passes only the fields
// that cannot change in place, operations/create.ts). Consequences, each deliberate:
// - a retry inside one run, a run that crashed after the service committed, and the next
//   `pulumi up` all send the same key, so the service replays instead of creating a duplicate;
// - a change to a field that cannot change in place gives a new key (a replacement is a new
//   object); a change to an updatable one keeps the key, so an earlier unrecorded attempt answers
//   422 (payload mismatch) and is found and taken over (operations/mismatch.ts);
// - another stack never sends this stack's keys, even with the same project, stack and resource
//   names (two engineers' `dev` stacks on one account, or a stack removed and re-created): the URN
//   alone is not unique across stacks, so each stack draws a random salt once and keeps it in its
//   own state (sdk/nodejs/internal/stackSalt.ts) before any create uses it;
// - `generation` moves to a fresh key when a replay describes an object that no longer exists
//   (destroyed and re-created within the service's 24 h record lifetime).
// Nothing else is remembered between runs: the salt is in state, the rest is derived.
import { createHash } from "node:crypto";
import { canonicalJson } from "./canonicalJson";

export interface IdempotencyIdentity {
  /** The stack's salt; absent only for resources registered without the SDK classes. */
  stackSalt?: string;
  urn: string;
  accountId: string;
  method: "POST";
  path: string;
  body: unknown;
  generation?: number;
}

/** A printable key of 71 characters, well inside the service's 255. */
export function deriveIdempotencyKey(id: IdempotencyIdentity): string {
  const who = id.stackSalt === undefined ? [id.urn] : [id.stackSalt, id.urn];
  const material = canonicalJson([...who, id.accountId, id.method, id.path, id.body, id.generation ?? 0]);
  return `txmail-${createHash("sha256").update(material).digest("hex")}`;
}
