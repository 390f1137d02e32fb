// Inbound routes. The signing secret is returned once at creation (a Pulumi secret, kept across
// refreshes); the delivery counters are outputs that never become a diff.
import { z } from "zod";
import { CreateRoute, Route, RouteWithSecret, paths } from "../api";
import type { ResourceSpec } from "../core/spec";

const inputs = z.object({
  name: CreateRoute.shape.name,
  url: CreateRoute.shape.url,
  recipient: CreateRoute.shape.recipient.default(""),
  attachments: z.boolean().optional(),
  headers: z.boolean().optional(),
  groupByMessageId: z.boolean().optional(),
  stripReplies: z.boolean().optional(),
  enabled: z.boolean().optional(),
});

/** The domain a route belongs to, for `routes:*:{domain}` scopes: that of its recipient address. */
const domainOf = (p: Record<string, unknown>) => String(p.recipient ?? "").split("@")[1] || "{domain}";

export const route: ResourceSpec<z.infer<typeof inputs>> = {
  kind: "Route",
  inputs,
  apiFields: ["name", "url", "recipient", "attachments", "headers", "groupByMessageId", "stripReplies", "enabled"],
  replaceOn: [],
  createOnly: { secret: "secret" },
  record: Route,
  created: RouteWithSecret,
  collectionPath: (c) => paths.routes(c.accountId),
  itemPath: (c, _p, id) => paths.route(c.accountId, id),
  scopes: {
    read: (p) => ["routes:read:all", `routes:read:${domainOf(p)}`],
    write: (p) => ["routes:write:all", `routes:write:${domainOf(p)}`],
    delete: (p) => ["routes:delete:all", `routes:delete:${domainOf(p)}`],
  },
};
