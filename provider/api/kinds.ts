// The one list of resource kinds: the faces (the SDK's classes, the native plugin's schema), the
// policy pack, the import plan, the docs and the tests' view of the emulator's state derive theirs
// from it. It lives in the contract layer so that the emulator and the policy pack, which may read
// nothing else, see the same list; each kind's declaration (provider/resources) names itself from
// it. Adding a kind: docs/development/adding-a-kind.md. No imports: the SDK loads this at
// `import "pulumi-txmail"` time.

/** What the contract says of a kind, for the layers that cannot read its declaration. */
export interface KindFacts {
  /** It is an API key: its inputs include `scopes` and `ipAllowList`. */
  readonly key?: true;
  /** The service delivers to its `url` input (webhooks, inbound routes). */
  readonly endpoint?: true;
  /**
   * It lives inside an account and is managed with that account's key: the scopes that key needs
   * for it are in managementScopes.ts.
   */
  readonly managed?: true;
  /**
   * It makes no object at the service: it watches an object of that kind (a DomainVerification
   * watches a Domain's DNS). Nothing of it is listed, dumped, imported or swept: OBJECT_KINDS.
   */
  readonly watches?: "Domain";
}

/**
 * Every resource kind (the last part of its type tokens) with its contract facts, in reading order
 * (the account's keys, sub accounts, then what an account holds): the order docs and plans use.
 */
export const KIND_FACTS = {
  ApiKey: { key: true },
  SubAccount: {},
  SubAccountApiKey: { key: true },
  Domain: { managed: true },
  DomainVerification: { managed: true, watches: "Domain" },
  Route: { endpoint: true, managed: true },
  Webhook: { endpoint: true, managed: true },
  SmtpCredential: { managed: true },
  AccountMember: { managed: true },
  Suppression: { managed: true },
} as const satisfies Record<string, KindFacts>;

/** A resource kind: `ApiKey`, `Route`, … */
export type Kind = keyof typeof KIND_FACTS;

/** Every resource kind, in reading order. */
export const KINDS = Object.keys(KIND_FACTS) as Kind[];

/** A kind whose resources are objects at the service (every kind that watches none). */
export type ObjectKind = { [K in Kind]: (typeof KIND_FACTS)[K] extends { watches: string } ? never : K }[Kind];

/** The kinds whose resources are objects at the service, in reading order. */
export const OBJECT_KINDS = KINDS.filter(
  (kind) => (KIND_FACTS[kind] as KindFacts).watches === undefined,
) as ObjectKind[];

/** Whether `name` is a resource kind. */
export const isKind = (name: string): name is Kind => Object.hasOwn(KIND_FACTS, name);

/** The kinds that have `fact`, in reading order. */
export const kindsWith = (fact: "key" | "endpoint" | "managed"): Kind[] =>
  KINDS.filter((kind) => (KIND_FACTS[kind] as KindFacts)[fact] === true);
