// Event webhooks. The signing secret is returned once at creation (a Pulumi secret, kept across
// refreshes). `domains` apply to scoped webhooks only.
import { z } from "zod";
import {
  CreateWebhookForm,
  Hostname,
  HttpUrl,
  Name,
  ObjectScope,
  paths,
  Webhook,
  WEBHOOK_EVENTS,
  type WebhookEvent,
  WebhookWithSecret,
} from "../api";
import { type SnakeToCamel, snakeToCamel } from "../core/casing";
import type { Declaration } from "../core/declaration";
import { scopedDomains } from "./fields";

const EVENT_INPUTS = WEBHOOK_EVENTS.map(snakeToCamel) as SnakeToCamel<WebhookEvent>[];

/** The ten event flags (all default false), e.g. `onBounced`, typed by name. */
const eventInputs = Object.fromEntries(
  WEBHOOK_EVENTS.map((e) => [
    snakeToCamel(e),
    z.boolean().optional().describe(`Deliver \`${e}\` events (default false).`),
  ]),
) as Record<SnakeToCamel<WebhookEvent>, z.ZodOptional<z.ZodBoolean>>;

/** The event flags' input names. */
export type WebhookEventInput = keyof typeof eventInputs;

const inputs = z.object({
  name: Name.describe("The webhook's name. Updated in place."),
  url: HttpUrl.describe("Endpoint receiving the events (http or https; the policy pack warns on http)."),
  enabled: z.boolean().optional().describe("Whether events are delivered (the service's default when unset)."),
  ...eventInputs,
  scope: ObjectScope.default("global").describe("`global` (default, every domain) or `scoped` (only `domains`)."),
  domains: z
    .array(Hostname)
    .default([])
    .describe("Domains of a scoped webhook (required non-empty when scoped, empty when global)."),
});

export const webhook = {
  kind: "Webhook",
  title: (p) => p.name,
  description: "An event webhook. `secret` signs its deliveries (a Pulumi secret, returned once at creation).",
  sdk: { outputs: ["secret", "successCount", "errorCount"] },
  inputs,
  apiFields: ["name", "url", "enabled", ...EVENT_INPUTS, "scope", "domains"] as never,
  createForm: CreateWebhookForm,
  replaceOn: [],
  createOnly: {
    /** Signs the webhook's deliveries (a Pulumi secret, returned once at creation; empty when adopted). */
    secret: "secret",
  },
  validate: scopedDomains,
  listing: { listed: true },
  record: Webhook,
  created: WebhookWithSecret,
  collectionPath: (c) => paths.webhooks(c.accountId),
  itemPath: (c, _p, id) => paths.webhook(c.accountId, id),
  scopes: {
    read: (p) => ["webhooks:read:all", ...domainScopes("webhooks:read", p)],
    write: (p) => ["webhooks:write:all", ...domainScopes("webhooks:write", p)],
    delete: (p) => ["webhooks:delete:all", ...domainScopes("webhooks:delete", p)],
  },
} satisfies Declaration<z.infer<typeof inputs>>;

export function domainScopes(prefix: string, p: Record<string, unknown>): string[] {
  return (Array.isArray(p.domains) ? (p.domains as string[]) : []).map((d) => `${prefix}:${d}`);
}
