// What a create's Idempotency-Key stands for, and the fields a search may compare: one definition.
//
// The key is this resource's creation slot (core/idempotencyKey.ts hashes it): the stack's salt,
// the URN, the account, the path, and the values that cannot change in place — the API fields that
// force a replacement and provider-local replace triggers such as `rotation`. Fields that change in
// place (an allow list, a website) and fields a later step applies (`SubAccount.suspended`,
// a `stateFields` entry) are left out: an earlier attempt of this resource with other such values
// then answers 422 on the same key instead of leaving a second object (operations/proof.ts).
//
// The fixed fields count as the program gives them (the body 0.1.x sent), not in the canonical form
// creates are sent in now (createForm.ts): that form fills in defaults and the service's spellings,
// which would give every create 0.1.x left unrecorded another key after an upgrade — and a twin.
import { camelToSnake } from "../casing";
import type { AnyDeclaration, Props } from "../declaration";
import { deriveIdempotencyKey } from "../idempotencyKey";
import { programBody } from "./createForm";

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
