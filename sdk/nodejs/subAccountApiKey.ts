import type * as pulumi from "@pulumi/pulumi";
import type { subAccountApiKey } from "../../provider/resources/subAccountApiKey";
import { type SubAccountApiKeyFields, SubAccountApiKeyRegistration } from "./generated/fields";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = [
  "secretKey",
  "publicKey",
  "createdAt",
  "lastUsedAt",
  // Of a rotation schedule (provider/core/rotating): unset without one.
  "previousSecretKey",
  "rotatedAt",
  "nextRotationAt",
  "previousRevokeAt",
] as const;

export interface SubAccountApiKeyArgs extends ArgsOf<typeof subAccountApiKey, SubAccountApiKeyFields> {}

export interface SubAccountApiKey extends OutputsOf<
  typeof subAccountApiKey,
  SubAccountApiKeyFields,
  (typeof OUTPUTS)[number]
> {}

/**
 * An API key that authenticates as a sub account, created with the parent's credentials (the
 * sub account's own keys cannot manage these). Use its `secretKey` as the tenant's bootstrap key.
 */
export class SubAccountApiKey extends DeclaredResource {
  constructor(name: string, args: SubAccountApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super("SubAccountApiKey", SubAccountApiKeyRegistration, OUTPUTS, name, args, opts);
  }
}
