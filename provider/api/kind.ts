// What a contract file (provider/api/<kind>.ts) says of a kind besides its schemas and endpoints:
// its facts, for the layers that cannot read its declaration (the emulator, the policy pack), and
// the scopes a key needs to manage one of its objects. A contract file exports them as
// `export const <Kind>Kind = defineKind({ … })`; `npm run gen:sdk` (scripts/gen-kinds.js) finds
// that export and lists the kind (provider/api/generated/contracts.ts, provider/api/kinds.ts).
// Only the scope grammar is imported: the contract files import this, and the kinds list imports them.
import { parseScope } from "./scopes";

/** How the policy pack reads an input a kind's scopes depend on: one string, or a list of strings. */
export type ManagedInput = "text" | "list";

/** The inputs a kind's scopes depend on, as the policy pack and the Tenant give them. */
export type ManagedInputs<I extends Record<string, ManagedInput>> = {
  readonly [K in keyof I]?: I[K] extends "list" ? readonly string[] : string;
};

/** The scopes a key needs to manage one object of a kind (docs/contract/scopes.md). */
export interface Management<I extends Record<string, ManagedInput> = Record<string, ManagedInput>> {
  /** The inputs the scopes depend on (the policy pack reads them from a resource's properties). */
  readonly inputs: I;
  /** The scopes, in the narrowest form the service accepts, for an object with those inputs. */
  readonly scopes: (o: ManagedInputs<I>) => readonly string[];
}

/** A kind's management scopes, typed by the inputs they read. */
export const manage = <const I extends Record<string, ManagedInput>>(
  inputs: I,
  scopes: (o: ManagedInputs<I>) => readonly string[],
): Management<I> => ({ inputs, scopes });

/** What the contract says of a kind, for the layers that cannot read its declaration. */
export interface KindFacts {
  /** Its place in reading order (the account's keys, sub accounts, then what an account holds): docs and plans list kinds by it. */
  readonly order: number;
  /** It is an API key: its inputs include `scopes` and `ipAllowList`. */
  readonly key?: true;
  /** The service delivers to its `url` input (webhooks, inbound routes). */
  readonly endpoint?: true;
  /** It lives inside an account and is managed with that account's key, which needs `manage`'s scopes. */
  readonly managed?: true;
  /** The scopes that key needs for one object of the kind: every managed kind has them. */
  readonly manage?: Management;
  /**
   * It makes no object at the service: it watches an object of that kind (a DomainVerification
   * watches a Domain's DNS). Nothing of it is listed, dumped, imported or swept: OBJECT_KINDS.
   */
  readonly watches?: "Domain";
}

/** A kind's facts, their literal types kept (kinds.ts checks that each managed kind says how it is managed). */
export const defineKind = <const F extends KindFacts>(facts: F): F => facts;

/** `prefix` + `domain` when that is a valid `{domain}` scope, else `prefix` + `all`. */
export function narrowest(prefix: string, domain: string | undefined): string {
  const scoped = domain === undefined ? undefined : `${prefix}${domain.trim().toLowerCase()}`;
  return scoped !== undefined && parseScope(scoped)?.domain !== undefined ? scoped : `${prefix}all`;
}

/**
 * A family's read, write and delete scopes (`routes:write:{domain}`) for each domain an object is
 * tied to, or the `:all` ones when it is tied to none.
 */
export function familyScopes(family: string, domains: readonly (string | undefined)[]): string[] {
  const tied = domains.length > 0 ? domains : [undefined];
  return tied.flatMap((domain) => ["read", "write", "delete"].map((verb) => narrowest(`${family}:${verb}:`, domain)));
}

/** The domains a webhook or an SMTP credential is tied to: its list when `scoped`, else none (docs/contract/scopes.md#domain-association). */
export const scopedDomains = (o: { scope?: string; domains?: readonly string[] }): readonly string[] =>
  o.scope === "scoped" ? (o.domains ?? []) : [];
