// The one list of resource kinds: the faces (the SDK's classes, the native plugin's schema), the
// policy pack, the import plan, the docs and the tests' view of the emulator's state derive theirs
// from it. It lives in the contract layer so that the emulator and the policy pack, which may read
// nothing else, see the same list; each kind's declaration (provider/resources) names itself from
// it. A kind is in it when its contract file says so (`export const <Kind>Kind = defineKind(…)`,
// provider/api/kind.ts), listed by `npm run gen:sdk` (generated/contracts.ts). Adding a kind:
// docs/development/adding-a-kind.md. The SDK imports only types from here at load time.
import type { KindFacts, Management } from "./kind";
import { CONTRACT_KINDS } from "./generated/contracts";

export type { KindFacts } from "./kind";

type Declared = typeof CONTRACT_KINDS;

/** A resource kind: `ApiKey`, `Route`, … */
export type Kind = keyof Declared;

/**
 * Every resource kind (the last part of its type tokens) with its contract facts, in reading order
 * (their `order`: the account's keys, sub accounts, then what an account holds): the order docs
 * and plans use.
 */
export const KIND_FACTS: { readonly [K in Kind]: Declared[K] } = Object.fromEntries(
  Object.entries(CONTRACT_KINDS as Record<string, KindFacts>).sort(([, a], [, b]) => a.order - b.order),
) as unknown as Declared;

/** Compiles only while every managed kind says how it is managed (its `manage`). */
const managedHaveScopes: {
  [K in Kind]: Declared[K] extends { managed: true }
    ? Declared[K] extends { manage: Management }
      ? true
      : false
    : true;
}[Kind] = true;
void managedHaveScopes;

/** Every resource kind, in reading order. */
export const KINDS = Object.keys(KIND_FACTS) as Kind[];

/** A kind whose resources are objects at the service (every kind that watches none). */
export type ObjectKind = { [K in Kind]: Declared[K] extends { watches: string } ? never : K }[Kind];

/** The kinds whose resources are objects at the service, in reading order. */
export const OBJECT_KINDS = KINDS.filter(
  (kind) => (KIND_FACTS[kind] as KindFacts).watches === undefined,
) as ObjectKind[];

/** A kind that lives in an account and is managed with its key. */
export type ManagedKind = { [K in Kind]: Declared[K] extends { managed: true } ? K : never }[Kind];

/** Whether `name` is a resource kind. */
export const isKind = (name: string): name is Kind => Object.hasOwn(KIND_FACTS, name);

/** The kinds that have `fact`, in reading order. */
export const kindsWith = (fact: "key" | "endpoint" | "managed"): Kind[] =>
  KINDS.filter((kind) => (KIND_FACTS[kind] as KindFacts)[fact] === true);
