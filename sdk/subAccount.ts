import type * as pulumi from "@pulumi/pulumi";
import { subAccount } from "../provider/resources/subAccount";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = ["status", "parentAccountId", "domainCount", "memberCount", "createdAt", "lastActivityAt"] as const;

export interface SubAccountArgs extends ArgsOf<typeof subAccount> {}

export interface SubAccount extends OutputsOf<typeof subAccount, (typeof OUTPUTS)[number]> {}

/** A child account under the parent's billing. Deleting it is the service's soft delete. */
export class SubAccount extends DeclaredResource {
  constructor(name: string, args: SubAccountArgs, opts?: pulumi.CustomResourceOptions) {
    super("SubAccount", subAccount, OUTPUTS, name, args, opts);
  }
}
