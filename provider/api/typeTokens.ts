// How each kind is named to Pulumi, its policies and `pulumi stack`. Two faces, one type token each:
// - dynamic (the default for TypeScript): `pulumi-nodejs:dynamic/txmail:<Kind>` (Pulumi forms it
//   from the module "txmail" and the kind);
// - native (the `txmail` provider plugin): `txmail:index:<Kind>`.
// The SDK registers resources under them and the policy pack matches on both, so all take them from
// here. Imports only the kinds' names (no schema): the SDK loads this at `import "pulumi-txmail"` time.
import { KIND_NAMES } from "./generated/kindNames";
import type { Kind } from "./kinds";

const isKind = (name: string): name is Kind => (KIND_NAMES as readonly string[]).includes(name);

export const dynamicTypeToken = (kind: string) => `pulumi-nodejs:dynamic/txmail:${kind}`;

export const nativeTypeToken = (kind: string) => `txmail:index:${kind}`;

/** @deprecated use `dynamicTypeToken` (the same function: the dynamic face's token). */
export const typeToken = dynamicTypeToken;

/** The kind a type token of either face names (`Route`), or undefined for other tokens. */
export function kindOfToken(token: string): Kind | undefined {
  const m = /^(?:pulumi-nodejs:dynamic\/txmail|txmail:index):([A-Za-z]+)$/.exec(token);
  return m && isKind(m[1]!) ? m[1] : undefined;
}
