import type * as pulumi from "@pulumi/pulumi";
import type { subAccount } from "../../provider/resources/subAccount";
import { type SubAccountFields, SubAccountRegistration } from "./generated/fields";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = ["status", "parentAccountId", "domainCount", "memberCount", "createdAt", "lastActivityAt"] as const;

export interface SubAccountArgs extends ArgsOf<typeof subAccount, SubAccountFields> {}

export interface SubAccount extends OutputsOf<typeof subAccount, SubAccountFields, (typeof OUTPUTS)[number]> {}

/** A child account under the parent's billing. Deleting it is the service's soft delete. */
export class SubAccount extends DeclaredResource {
  constructor(name: string, args: SubAccountArgs, opts?: pulumi.CustomResourceOptions) {
    super("SubAccount", SubAccountRegistration, OUTPUTS, name, args, opts);
  }
}
