// Event webhooks. The signing secret is returned once at creation (a Pulumi secret, kept across
// refreshes). `domains` apply to scoped webhooks only.
import { z } from "zod";
import { Hostname, HttpUrl, Name, WEBHOOK_EVENTS, Webhook, WebhookWithSecret, paths } from "../api";
import { snakeToCamel } from "../core/casing";
import type { ResourceSpec } from "../core/spec";
import { scopedDomains } from "./fields";

const EVENT_INPUTS = WEBHOOK_EVENTS.map(snakeToCamel) as string[];

const inputs = z.object({
  name: Name.describe("The webhook's name. Updated in place."),
  url: HttpUrl.describe("Endpoint receiving the events (http or https; the policy pack warns on http)."),
  enabled: z.boolean().optional().describe("Whether events are delivered (the service's default when unset)."),
  ...Object.fromEntries(
    WEBHOOK_EVENTS.map((e) => [
      snakeToCamel(e),
      z.boolean().optional().describe(`Deliver \`${e}\` events (default false).`),
    ]),
  ),
  scope: z
    .enum(["global", "scoped"])
    .default("global")
    .describe("`global` (default, every domain) or `scoped` (only `domains`)."),
  domains: z
    .array(Hostname)
    .default([])
    .describe("Domains of a scoped webhook (required non-empty when scoped, empty when global)."),
});

export const webhook: ResourceSpec<z.infer<typeof inputs>> = {
  kind: "Webhook",
  description: "An event webhook. `secret` signs its deliveries (a Pulumi secret, returned once at creation).",
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
};

export function domainScopes(prefix: string, p: Record<string, unknown>): string[] {
  return (Array.isArray(p.domains) ? (p.domains as string[]) : []).map((d) => `${prefix}:${d}`);
}
