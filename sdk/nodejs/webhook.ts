import type * as pulumi from "@pulumi/pulumi";
import type { WebhookEventInput, webhook } from "../../provider/resources/webhook";
import { type WebhookFields, WebhookRegistration } from "./generated/fields";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = ["secret", "successCount", "errorCount"] as const;

export interface WebhookArgs extends ArgsOf<typeof webhook, WebhookFields> {}

/** The ten event flags (all default false). */
export type WebhookEvents = Pick<WebhookArgs, WebhookEventInput>;

export interface Webhook extends OutputsOf<typeof webhook, WebhookFields, (typeof OUTPUTS)[number]> {}

/** An event webhook. `secret` signs its deliveries (a Pulumi secret, returned once at creation). */
export class Webhook extends DeclaredResource {
  constructor(name: string, args: WebhookArgs, opts?: pulumi.CustomResourceOptions) {
    super("Webhook", WebhookRegistration, OUTPUTS, name, args, opts);
  }
}
