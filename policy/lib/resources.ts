// The resources these policies look at. Dynamic resources carry no type marker for
// validateResourceOfType, so rules match on `args.type`; the tokens come from the SDK's own helper,
// the kinds and what each is (a key, an endpoint, managed with a key) from the one list of kinds.
// A kind has two tokens, one per face (dynamic `pulumi-nodejs:dynamic/txmail:<Kind>`, native
// `txmail:index:<Kind>`): every rule matches both.
import type { ResourceValidationArgs } from "@pulumi/policy";
import { KINDS, type Kind, kindsWith } from "../../provider/api/kinds";
import { dynamicTypeToken, kindOfToken } from "../../provider/api/typeTokens";

export type { Kind };

/** Each kind's dynamic type token (the native one is `nativeTypeToken`). */
export const TYPES: Readonly<Record<Kind, string>> = Object.fromEntries(
  KINDS.map((kind) => [kind, dynamicTypeToken(kind)]),
) as Record<Kind, string>;

/** Kinds whose inputs include `ipAllowList` and `scopes`. */
export const KEY_KINDS: readonly Kind[] = kindsWith("key");
/** Kinds a key manages when they are created with it (their `connection` holds its secret). */
export const MANAGED_KINDS: readonly Kind[] = kindsWith("managed");
/** Kinds whose inputs include a delivery `url`. */
export const ENDPOINT_KINDS: readonly Kind[] = kindsWith("endpoint");

/** The kind of a resource of either face if it is one of `kinds`. */
export function kindOf(type: string, kinds: readonly Kind[]): Kind | undefined {
  const kind = kindOfToken(type);
  return kinds.find((k) => k === kind);
}

/** How messages name a resource: its kind and its Pulumi name, e.g. `ApiKey 'sender'`. */
export function subject(kind: Kind, args: Pick<ResourceValidationArgs, "name">): string {
  return `${kind} '${args.name}'`;
}
