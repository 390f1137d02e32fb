// What a create's Idempotency-Key stands for, how it is derived, and the fields a search may compare:
// one definition, a leaf the create calls (it calls nothing of the create back).
//
// The key is this resource's creation slot: the stack's salt,
// the URN, the account, the path, and the values that cannot change in place — the API fields that
// force a replacement and provider-local replace triggers such as `rotation`. Fields that change in
// place (an allow list, a website) and fields a later step applies (`SubAccount.suspended`,
// a `stateFields` entry) are left out: an earlier attempt of this resource with other such values
// then answers 422 on the same key instead of leaving a second object (operations/proof.ts).
//
// The fixed fields count as the program gives them (the body 0.1.x sent), not in the canonical form
// creates are sent in now (createForm.ts): that form fills in defaults and the service's spellings,
// which would give every create 0.1.x left unrecorded another key after an upgrade — and a twin.
//
// The derivation (deriveIdempotencyKey) hashes who is creating (the stack's salt, the resource's URN,
// the target account) and what (method, path, and the fixed fields above). Consequences, each deliberate:
// - a retry inside one run, a run that crashed after the service committed, and the next
//   `pulumi up` all send the same key, so the service replays instead of creating a duplicate;
// - a change to a field that cannot change in place gives a new key (a replacement is a new
//   object); a change to an updatable one keeps the key, so an earlier unrecorded attempt answers
//   422 (payload mismatch) and is found and taken over (proof.ts);
// - another stack never sends this stack's keys, even with the same project, stack and resource
//   names (two engineers' `dev` stacks on one account, or a stack removed and re-created): the URN
//   alone is not unique across stacks, so each stack draws a random salt once and keeps it in its
//   own state (sdk/nodejs/internal/stackSalt.ts) before any create uses it;
// - `generation` moves to a fresh key when a replay describes an object that no longer exists
//   (destroyed and re-created within the service's 24 h record lifetime).
// Nothing else is remembered between runs: the salt is in state, the rest is derived.
import { createHash } from "node:crypto";
import { canonicalJson } from "../canonicalJson";
import { camelToSnake } from "../casing";
import type { AnyDeclaration, Props } from "../declaration";

/** Inputs the key stands for: what cannot change in place (every API field of an immutable kind). */
export function keyFields(declaration: AnyDeclaration): readonly string[] {
  const replacing = declaration.immutable
    ? [...declaration.apiFields, ...declaration.replaceOn]
    : declaration.replaceOn;
  const later = new Set<string>(declaration.stateFields ?? []);
  return [...new Set(replacing)].filter((f) => !later.has(f));
}

/** API fields the service reports back as sent: the only ones a search may compare with a record. */
export function reportedFields(declaration: AnyDeclaration): readonly string[] {
  const unreported = new Set<string>([...(declaration.writeOnly ?? []), ...(declaration.inputOnly ?? [])]);
  return declaration.apiFields.filter((f) => !unreported.has(f));
}

export interface CreatePost {
  urn: string;
  accountId: string;
  path: string;
}

/** The Idempotency-Key of this create's attempt number `generation`. */
export function createKey(declaration: AnyDeclaration, inputs: Props, post: CreatePost, generation: number): string {
  const fixed = keyFields(declaration);
  const api = new Set<string>(declaration.apiFields);
  const bodyFields = new Set(fixed.filter((f) => api.has(f)).map(camelToSnake));
  const identity = {
    body: Object.fromEntries(Object.entries(programBody(declaration, inputs)).filter(([f]) => bodyFields.has(f))),
    local: Object.fromEntries(fixed.filter((f) => !api.has(f)).map((f) => [f, inputs[f]])),
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

/** The body 0.1.x sent: the API fields the program set, as it set them, in the declaration's order. */
export function programBody(declaration: AnyDeclaration, props: Props): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of declaration.apiFields) if (props[f] !== undefined) body[camelToSnake(f)] = props[f];
  return body;
}

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
