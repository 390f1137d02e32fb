// Event webhooks. The signing secret is returned once at creation (a Pulumi secret, kept across
// refreshes). `domains` apply to scoped webhooks only.
import { z } from "zod";
import { Hostname, HttpUrl, Name, WEBHOOK_EVENTS, Webhook, WebhookWithSecret, paths } from "../api";
import { snakeToCamel } from "../core/casing";
import type { ResourceSpec } from "../core/spec";
import { scopedDomains } from "./fields";

const EVENT_INPUTS = WEBHOOK_EVENTS.map(snakeToCamel) as string[];

const inputs = z.object({
  name: Name,
  url: HttpUrl,
  enabled: z.boolean().optional(),
  ...Object.fromEntries(EVENT_INPUTS.map((e) => [e, z.boolean().optional()])),
  scope: z.enum(["global", "scoped"]).default("global"),
  domains: z.array(Hostname).default([]),
});

export const webhook: ResourceSpec<z.infer<typeof inputs>> = {
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
};

export function domainScopes(prefix: string, p: Record<string, unknown>): string[] {
  return (Array.isArray(p.domains) ? (p.domains as string[]) : []).map((d) => `${prefix}:${d}`);
}
