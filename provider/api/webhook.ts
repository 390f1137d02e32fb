// Outbound event webhooks.
import { z } from "zod";
import { DeliveryCounters, Hostname, Name, ObjectScope, Timestamp, Uuid } from "./common";
import { HttpUrl } from "./route";

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

const flags = <T extends z.ZodType>(f: (b: z.ZodBoolean) => T) =>
  Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e, f(z.boolean())])) as Record<WebhookEvent, T>;

export const Webhook = z.object({
  object: z.literal("webhook"),
  id: Uuid,
  created_at: Timestamp,
  updated_at: Timestamp,
  name: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  ...flags((b) => b),
  scope: ObjectScope,
  domains: z.array(z.string()),
  ...DeliveryCounters,
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookWithSecret = Webhook.extend({ secret: z.string() });
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
