import * as pulumi from "@pulumi/pulumi";
import type { CommonArgs } from "./internal/common";
import { TxmailResource } from "./internal/txmailResource";

export type MemberRole = "Administrator" | "Developer" | "Analyst" | "Billing Manager";

export interface AccountMemberArgs extends CommonArgs {
  /** The person's email address (their login). */
  email: pulumi.Input<string>;
  /** Display name, used when the service invites the person. */
  name?: pulumi.Input<string>;
  role: pulumi.Input<MemberRole>;
}

/**
 * A person who may log in to the account (a sub account: give its `connection`, or declare members
 * in a `Tenant`). The service has no update: any change replaces the membership; keeping the email
 * means the old membership is removed before the new one is added. Adopt an existing member with
 * `adoptId: <user id>`. The account owner, and the user the API key acts for, cannot be removed.
 */
export class AccountMember extends TxmailResource {
  declare readonly email: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string | undefined>;
  declare readonly role: pulumi.Output<MemberRole>;
  declare readonly userId: pulumi.Output<string>;
  declare readonly accountId: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: AccountMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "AccountMember",
      name,
      args,
      {
        email: args.email,
        name: args.name,
        role: args.role,
        userId: undefined,
        accountId: undefined,
        createdAt: undefined,
      },
      opts,
    );
  }
}
