import * as pulumi from "@pulumi/pulumi";
import type { CommonArgs } from "./internal/common";
import { TxmailResource } from "./internal/txmailResource";

export interface SuppressionArgs extends CommonArgs {
  /** The address never to mail. */
  email: pulumi.Input<string>;
  /** Only for this sending domain; unset: every domain of the account. */
  domain?: pulumi.Input<string>;
  /** Why (at most 255 characters), e.g. the compliance list it comes from. */
  reason?: pulumi.Input<string>;
  /** RFC 3339 instant, in the future. Afterwards the suppression is gone (read as deleted). */
  expiresAt: pulumi.Input<string>;
}

/**
 * An address the account must never mail. Any change replaces it (delete first when email and
 * domain stay). After `expiresAt` the service drops it: `pulumi refresh` removes it from state and
 * the next `pulumi up` recreates it only if the program still declares it (with a later expiresAt).
 */
export class Suppression extends TxmailResource {
  declare readonly email: pulumi.Output<string>;
  declare readonly domain: pulumi.Output<string | undefined>;
  declare readonly reason: pulumi.Output<string | undefined>;
  declare readonly expiresAt: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;

  constructor(name: string, args: SuppressionArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Suppression",
      name,
      args,
      { email: args.email, domain: args.domain, reason: args.reason, expiresAt: args.expiresAt, createdAt: undefined },
      opts,
    );
  }
}
