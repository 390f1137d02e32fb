// Stable Idempotency-Key derivation.
//
// The key is a hash of who is creating (the resource's URN, the target account) and what (method,
// path, the canonical request body). Consequences, each deliberate:
// - a retry inside one run, a run that crashed after the service committed, and the next
//   `pulumi up` all send the same key, so the service replays instead of creating a duplicate;
// - changed inputs give a new key, so the service never answers 422 (payload mismatch);
// - `generation` moves to a fresh key when a replay describes an object that no longer exists
//   (destroyed and re-created within the service's 24 h record lifetime).
// The key is derived, never random, so nothing needs to be remembered between runs.
import { createHash } from "node:crypto";
import { canonicalJson } from "./canonicalJson";

export interface IdempotencyIdentity {
  urn: string;
  accountId: string;
  method: "POST";
  path: string;
  body: unknown;
  generation?: number;
}

/** A printable key of 71 characters, well inside the service's 255. */
export function deriveIdempotencyKey(id: IdempotencyIdentity): string {
  const material = canonicalJson([id.urn, id.accountId, id.method, id.path, id.body, id.generation ?? 0]);
  return `txmail-${createHash("sha256").update(material).digest("hex")}`;
}
