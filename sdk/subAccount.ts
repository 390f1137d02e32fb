import * as pulumi from "@pulumi/pulumi";
import type { CommonArgs } from "./internal/common";
import { TxmailResource } from "./internal/txmailResource";

export interface SubAccountArgs extends CommonArgs {
  /** Display name, 1–255 characters. Updated in place. */
  name: pulumi.Input<string>;
  /** The customer's website (a host name such as `shop.example.com`). Updated in place. */
  website: pulumi.Input<string>;
  /** Monthly credit cap, 0 = no cap. Updated in place. */
  monthlyCredit?: pulumi.Input<number>;
  /** Suspend (true) or reactivate (false) the sub account. Default false. */
  suspended?: pulumi.Input<boolean>;
  /** Why the account is suspended; required when `suspended` is true. */
  suspensionReason?: pulumi.Input<string>;
}

/** A child account under the parent's billing. Deleting it is the service's soft delete. */
export class SubAccount extends TxmailResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly website: pulumi.Output<string>;
  declare readonly monthlyCredit: pulumi.Output<number>;
  declare readonly suspended: pulumi.Output<boolean>;
  /** `active`, `suspended`, `parent-suspended` or `deleted`. */
  declare readonly status: pulumi.Output<string>;
  declare readonly parentAccountId: pulumi.Output<string>;
  declare readonly domainCount: pulumi.Output<number>;
  declare readonly memberCount: pulumi.Output<number>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly lastActivityAt: pulumi.Output<string | null>;

  constructor(name: string, args: SubAccountArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "SubAccount",
      name,
      args,
      {
        name: args.name,
        website: args.website,
        monthlyCredit: args.monthlyCredit,
        suspended: args.suspended,
        suspensionReason: args.suspensionReason,
        status: undefined,
        parentAccountId: undefined,
        domainCount: undefined,
        memberCount: undefined,
        createdAt: undefined,
        lastActivityAt: undefined,
      },
      opts,
    );
  }
}
