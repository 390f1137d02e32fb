// A create's stored form: what the service keeps for each field of a create body — the value of a
// field left out (its create default) and the form it keeps a given value in, which is the form
// its records report. One table per kind, next to its Create schema. The emulator's handlers store
// with it; the provider sends every create in it (provider/core/operations/createForm.ts), so a
// create body is a function of the values the record reports, and the two cannot drift.
// docs/contract/idempotency.md#the-canonical-create-body.

type Given<V> = Exclude<V, undefined | null>;

export interface CreateForm<B> {
  /**
   * What the service stores for a field the create leaves out. Not listed: fields whose unset value
   * is the service's own choice with no documented value, or `null` (left out when unset).
   */
  readonly defaults: { readonly [F in keyof B]?: Given<B[F]> };
  /**
   * The form the service keeps a given value in, where it is not the value as sent (`undefined`:
   * the service keeps it as unset). Each is idempotent: a reported value is already in its form.
   */
  readonly stored?: { readonly [F in keyof B]?: (value: Given<B[F]>) => unknown };
}

/** Domain lists as the service keeps them: lower case, the first of each kept, in the order given. */
export const storedDomains = (domains: readonly string[] | null | undefined): string[] => [
  ...new Set((domains ?? []).map((d) => d.toLowerCase())),
];
