// Outbound event webhooks.
import { z } from "zod";
import { DeliveryCounters, Hostname, Name, ObjectScope, Timestamp, Uuid } from "./common";
import { type CreateForm, storedDomains } from "./createForm";
import { HttpUrl } from "./route";
import { ListOf } from "./common";
import { A, create, read, remove, update } from "./endpoint";
import { defineKind, familyScopes, manage, scopedDomains } from "./kind";

/** The ten event flags, in the order the service documents them. */
export const WEBHOOK_EVENTS = [
  "on_reception",
  "on_delivered",
  "on_transient_error",
  "on_failed",
  "on_bounced",
  "on_suppressed",
  "on_opened",
  "on_clicked",
  "on_suppression_created",
  "on_dns_error",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const flags = <T extends z.ZodType>(f: (b: z.ZodBoolean, event: WebhookEvent) => T) =>
  Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e, f(z.boolean(), e)])) as Record<WebhookEvent, T>;

export const Webhook = z.object({
  object: z.literal("webhook").describe("The record's type: always `webhook`."),
  id: Uuid.describe("The webhook's id."),
  created_at: Timestamp.describe("When the webhook was created (RFC 3339)."),
  updated_at: Timestamp.describe("When the webhook was last changed (RFC 3339)."),
  name: z.string().describe("The webhook's name."),
  url: z.string().describe("The endpoint events are delivered to."),
  enabled: z.boolean().describe("Whether events are delivered."),
  ...flags((b, e) => b.describe(`Whether \`${e}\` events are delivered.`)),
  scope: ObjectScope.describe("`global` (every domain) or `scoped` (only `domains`)."),
  domains: z.array(z.string()).describe("The domains of a scoped webhook; empty when global."),
  ...DeliveryCounters,
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookWithSecret = Webhook.extend({
  secret: z.string().describe("The secret the webhook's deliveries are signed with."),
});
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

/** `domains` must be non-empty when scoped; it is ignored for global objects. */
export function requireDomainsWhenScoped(
  v: { scope?: ObjectScope | null; domains?: string[] | null },
  ctx: z.RefinementCtx,
): void {
  if (v.scope === "scoped" && (!v.domains || v.domains.length === 0)) {
    ctx.addIssue({
      code: "custom",
      path: ["domains"],
      message: "must list at least one domain when scope is 'scoped'",
    });
  }
}

export const CreateWebhook = z
  .strictObject({
    name: Name,
    url: HttpUrl,
    scope: ObjectScope,
    enabled: z.boolean().optional(),
    ...flags((b) => b.optional()),
    domains: z.array(Hostname).optional(),
  })
  .superRefine(requireDomainsWhenScoped);
export type CreateWebhook = z.infer<typeof CreateWebhook>;

/**
 * What a webhook's create stores (createForm.ts): enabled, no event, no domain when left out;
 * domains lower-cased and de-duplicated (and none for a global webhook, which ignores them).
 */
export const CreateWebhookForm = {
  defaults: {
    enabled: true,
    ...(Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e, false])) as Record<WebhookEvent, false>),
    domains: [],
  },
  stored: { domains: storedDomains },
} as const satisfies CreateForm<CreateWebhook>;

/** Switching to `scoped` needs non-empty domains in the same request (checked by the service against state). */
export const UpdateWebhook = z.strictObject({
  name: Name.nullish(),
  url: HttpUrl.nullish(),
  scope: ObjectScope.nullish(),
  enabled: z.boolean().nullish(),
  ...flags((b) => b.nullish()),
  domains: z.array(Hostname).nullish(),
});
export type UpdateWebhook = z.infer<typeof UpdateWebhook>;

export const webhookEndpoints = {
  listWebhooks: read(`${A}/webhooks`, ListOf(Webhook)),
  createWebhook: create(`${A}/webhooks`, CreateWebhook, WebhookWithSecret),
  getWebhook: read(`${A}/webhooks/{webhook_id}`, Webhook),
  updateWebhook: update(`${A}/webhooks/{webhook_id}`, UpdateWebhook, Webhook),
  deleteWebhook: remove(`${A}/webhooks/{webhook_id}`),
} as const;

/** A `scoped` webhook is tied to its domains; a global one to none (the `:all` scopes). */
export const WebhookKind = defineKind({
  order: 70,
  endpoint: true,
  managed: true,
  manage: manage({ scope: "text", domains: "list" }, (o) => familyScopes("webhooks", scopedDomains(o))),
});
