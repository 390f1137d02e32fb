import * as pulumi from "@pulumi/pulumi";
import type { CommonArgs } from "./internal/common";
import { TxmailResource } from "./internal/txmailResource";

export interface RouteArgs extends CommonArgs {
  name: pulumi.Input<string>;
  /** Where inbound mail is posted (http or https). */
  url: pulumi.Input<string>;
  /** Recipient filter: an address or `*@domain`; "" (default) = all inbound mail. */
  recipient?: pulumi.Input<string>;
  attachments?: pulumi.Input<boolean>;
  headers?: pulumi.Input<boolean>;
  groupByMessageId?: pulumi.Input<boolean>;
  stripReplies?: pulumi.Input<boolean>;
  enabled?: pulumi.Input<boolean>;
}

/** An inbound route. `secret` signs its requests (a Pulumi secret, returned once at creation). */
export class Route extends TxmailResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly url: pulumi.Output<string>;
  declare readonly recipient: pulumi.Output<string>;
  declare readonly attachments: pulumi.Output<boolean>;
  declare readonly headers: pulumi.Output<boolean>;
  declare readonly groupByMessageId: pulumi.Output<boolean>;
  declare readonly stripReplies: pulumi.Output<boolean>;
  declare readonly enabled: pulumi.Output<boolean>;
  declare readonly secret: pulumi.Output<string>;
  declare readonly successCount: pulumi.Output<number>;
  declare readonly errorCount: pulumi.Output<number>;
  declare readonly errorsSinceLastSuccess: pulumi.Output<number>;
  declare readonly lastRequestAt: pulumi.Output<string | null>;

  constructor(name: string, args: RouteArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Route",
      name,
      args,
      {
        name: args.name,
        url: args.url,
        recipient: args.recipient,
        attachments: args.attachments,
        headers: args.headers,
        groupByMessageId: args.groupByMessageId,
        stripReplies: args.stripReplies,
        enabled: args.enabled,
        secret: undefined,
        successCount: undefined,
        errorCount: undefined,
        errorsSinceLastSuccess: undefined,
        lastRequestAt: undefined,
      },
      opts,
      ["secret"],
    );
  }
}
