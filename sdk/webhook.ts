import * as pulumi from "@pulumi/pulumi";
import type { CommonArgs } from "./internal/common";
import { TxmailResource } from "./internal/txmailResource";

/** The ten event flags (all default false). */
export interface WebhookEvents {
  onReception?: pulumi.Input<boolean>;
  onDelivered?: pulumi.Input<boolean>;
  onTransientError?: pulumi.Input<boolean>;
  onFailed?: pulumi.Input<boolean>;
  onBounced?: pulumi.Input<boolean>;
  onSuppressed?: pulumi.Input<boolean>;
  onOpened?: pulumi.Input<boolean>;
  onClicked?: pulumi.Input<boolean>;
  onSuppressionCreated?: pulumi.Input<boolean>;
  onDnsError?: pulumi.Input<boolean>;
}

export interface WebhookArgs extends CommonArgs, WebhookEvents {
  name: pulumi.Input<string>;
  /** Endpoint receiving the events (http or https; the policy pack warns on http). */
  url: pulumi.Input<string>;
  enabled?: pulumi.Input<boolean>;
  /** `global` (default, every domain) or `scoped` (only `domains`). */
  scope?: pulumi.Input<"global" | "scoped">;
  /** Domains of a scoped webhook (required non-empty when scoped, empty when global). */
  domains?: pulumi.Input<pulumi.Input<string>[]>;
}

const EVENTS = [
  "onReception",
  "onDelivered",
  "onTransientError",
  "onFailed",
  "onBounced",
  "onSuppressed",
  "onOpened",
  "onClicked",
  "onSuppressionCreated",
  "onDnsError",
] as const;

/** An event webhook. `secret` signs its deliveries (a Pulumi secret, returned once at creation). */
export class Webhook extends TxmailResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly url: pulumi.Output<string>;
  declare readonly enabled: pulumi.Output<boolean>;
  declare readonly scope: pulumi.Output<"global" | "scoped">;
  declare readonly domains: pulumi.Output<string[]>;
  declare readonly secret: pulumi.Output<string>;
  declare readonly successCount: pulumi.Output<number>;
  declare readonly errorCount: pulumi.Output<number>;
  declare readonly onReception: pulumi.Output<boolean>;
  declare readonly onDelivered: pulumi.Output<boolean>;
  declare readonly onTransientError: pulumi.Output<boolean>;
  declare readonly onFailed: pulumi.Output<boolean>;
  declare readonly onBounced: pulumi.Output<boolean>;
  declare readonly onSuppressed: pulumi.Output<boolean>;
  declare readonly onOpened: pulumi.Output<boolean>;
  declare readonly onClicked: pulumi.Output<boolean>;
  declare readonly onSuppressionCreated: pulumi.Output<boolean>;
  declare readonly onDnsError: pulumi.Output<boolean>;

  constructor(name: string, args: WebhookArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Webhook",
      name,
      args,
      {
        name: args.name,
        url: args.url,
        enabled: args.enabled,
        scope: args.scope,
        domains: args.domains,
        ...Object.fromEntries(EVENTS.map((e) => [e, args[e]])),
        secret: undefined,
        successCount: undefined,
        errorCount: undefined,
      },
      opts,
      ["secret"],
    );
  }
}
