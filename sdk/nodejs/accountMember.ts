import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { accountMember } from "../../provider/resources/accountMember";
import { type AccountMemberFields, AccountMemberRegistration } from "./generated/fields";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = ["userId", "accountId", "createdAt"] as const;

export type MemberRole = z.output<typeof accountMember.inputs>["role"];

export interface AccountMemberArgs extends ArgsOf<typeof accountMember, AccountMemberFields> {}

export interface AccountMember extends OutputsOf<typeof accountMember, AccountMemberFields, (typeof OUTPUTS)[number]> {}

/**
 * A person who may log in to the account (a sub account: give its `connection`, or declare members
 * in a `Tenant`). The service has no update: any change replaces the membership; keeping the email
 * means the old membership is removed before the new one is added. Adopt an existing member with
 * `adoptId: <user id>`. The account owner, and the user the API key acts for, cannot be removed.
 */
export class AccountMember extends DeclaredResource {
  constructor(name: string, args: AccountMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super("AccountMember", AccountMemberRegistration, OUTPUTS, name, args, opts);
  }
}
