import type * as pulumi from "@pulumi/pulumi";
import { subAccountApiKey } from "../provider/resources/subAccountApiKey";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = ["secretKey", "publicKey", "createdAt", "lastUsedAt"] as const;

export interface SubAccountApiKeyArgs extends ArgsOf<typeof subAccountApiKey> {}

export interface SubAccountApiKey extends OutputsOf<typeof subAccountApiKey, (typeof OUTPUTS)[number]> {}

/**
 * An API key that authenticates as a sub account, created with the parent's credentials (the
 * sub account's own keys cannot manage these). Use its `secretKey` as the tenant's bootstrap key.
 */
export class SubAccountApiKey extends DeclaredResource {
  constructor(name: string, args: SubAccountApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super("SubAccountApiKey", subAccountApiKey, OUTPUTS, name, args, opts);
  }
}
