// The resources these policies look at. Dynamic resources carry no type marker for
// validateResourceOfType, so rules match on `args.type`; the tokens come from the SDK's own helper.
// A kind has two tokens, one per face (dynamic `pulumi-nodejs:dynamic/txmail:<Kind>`, native
// `txmail:index:<Kind>`): every rule matches both.
import type { ResourceValidationArgs } from "@pulumi/policy";
import { kindOfToken, typeToken } from "../../provider/api/typeTokens";

export type Kind =
  "ApiKey" | "SubAccountApiKey" | "Webhook" | "Route" | "Domain" | "SmtpCredential" | "AccountMember" | "Suppression";

export const TYPES: Readonly<Record<Kind, string>> = {
  ApiKey: typeToken("ApiKey"),
  SubAccountApiKey: typeToken("SubAccountApiKey"),
  Webhook: typeToken("Webhook"),
  Route: typeToken("Route"),
  Domain: typeToken("Domain"),
  SmtpCredential: typeToken("SmtpCredential"),
  AccountMember: typeToken("AccountMember"),
  Suppression: typeToken("Suppression"),
};

/** Kinds whose inputs include `ipAllowList` and `scopes`. */
export const KEY_KINDS: readonly Kind[] = ["ApiKey", "SubAccountApiKey"];
/** Kinds a key manages when they are created with it (their `connection` holds its secret). */
export const MANAGED_KINDS: readonly Kind[] = [
  "Domain",
  "Route",
  "Webhook",
  "SmtpCredential",
  "AccountMember",
  "Suppression",
];
/** Kinds whose inputs include a delivery `url`. */
export const ENDPOINT_KINDS: readonly Kind[] = ["Webhook", "Route"];

/** The kind of a resource of either face if it is one of `kinds`. */
export function kindOf(type: string, kinds: readonly Kind[]): Kind | undefined {
  const kind = kindOfToken(type);
  return kinds.find((k) => k === kind);
}

/** How messages name a resource: its kind and its Pulumi name, e.g. `ApiKey 'sender'`. */
export function subject(kind: Kind, args: Pick<ResourceValidationArgs, "name">): string {
  return `${kind} '${args.name}'`;
}
