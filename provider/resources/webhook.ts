// Event webhooks. The signing secret is returned once at creation (a Pulumi secret, kept across
// refreshes). `domains` apply to scoped webhooks only.
import { z } from "zod";
import { Hostname, HttpUrl, Name, WEBHOOK_EVENTS, Webhook, type WebhookEvent, WebhookWithSecret, paths } from "../api";
import { type SnakeToCamel, snakeToCamel } from "../core/casing";
import type { ResourceSpec } from "../core/spec";
import { scopedDomains } from "./fields";

const EVENT_INPUTS = WEBHOOK_EVENTS.map(snakeToCamel) as SnakeToCamel<WebhookEvent>[];

/** The ten event flags (all default false), e.g. `onBounced`. */
const eventInputs = Object.fromEntries(EVENT_INPUTS.map((e) => [e, z.boolean().optional()])) as Record<
  SnakeToCamel<WebhookEvent>,
  z.ZodOptional<z.ZodBoolean>
>;

const inputs = z.object({
  name: Name,
  /** Endpoint receiving the events (http or https; the policy pack warns on http). */
  url: HttpUrl,
  enabled: z.boolean().optional(),
  ...eventInputs,
  /** `global` (default, every domain) or `scoped` (only `domains`). */
  scope: z.enum(["global", "scoped"]).default("global"),
  /** Domains of a scoped webhook (required non-empty when scoped, empty when global). */
  domains: z.array(Hostname).default([]),
});

/** The event flags' input names. */
export type WebhookEventInput = keyof typeof eventInputs;

export const webhook = {
  kind: "Webhook",
  inputs,
  apiFields: ["name", "url", "enabled", ...EVENT_INPUTS, "scope", "domains"] as never,
  replaceOn: [],
  createOnly: { secret: "secret" },
  validate: scopedDomains,
  record: Webhook,
  created: WebhookWithSecret,
  collectionPath: (c) => paths.webhooks(c.accountId),
  itemPath: (c, _p, id) => paths.webhook(c.accountId, id),
  scopes: {
    read: (p) => ["webhooks:read:all", ...domainScopes("webhooks:read", p)],
    write: (p) => ["webhooks:write:all", ...domainScopes("webhooks:write", p)],
    delete: (p) => ["webhooks:delete:all", ...domainScopes("webhooks:delete", p)],
  },
} satisfies ResourceSpec<z.infer<typeof inputs>>;

export function domainScopes(prefix: string, p: Record<string, unknown>): string[] {
  return (Array.isArray(p.domains) ? (p.domains as string[]) : []).map((d) => `${prefix}:${d}`);
}
