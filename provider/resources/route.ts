// Inbound routes. The signing secret is returned once at creation (a Pulumi secret, kept across
// refreshes); the delivery counters are outputs that never become a diff.
import { z } from "zod";
import { CreateRoute, CreateRouteForm, paths, Route, RouteWithSecret } from "../api";
import type { Declaration } from "../core/declaration";

const inputs = z.object({
  name: CreateRoute.shape.name.describe("The route's name. Updated in place."),
  url: CreateRoute.shape.url.describe("Where inbound mail is posted (http or https)."),
  recipient: CreateRoute.shape.recipient
    .default("")
    .describe('Recipient filter: an address or `*@domain`; "" (default) = all inbound mail.'),
  attachments: z.boolean().optional().describe("Post attachments with the message."),
  headers: z.boolean().optional().describe("Post the message's headers."),
  groupByMessageId: z.boolean().optional().describe("Group posts by message id."),
  stripReplies: z.boolean().optional().describe("Strip quoted replies from the posted text."),
  enabled: z.boolean().optional().describe("Whether the route posts mail (the service's default when unset)."),
});

/** The domain a route belongs to (lower case, as the service associates it): that of its recipient. */
const recipientDomain = (p: Record<string, unknown>): string | undefined => {
  const recipient = String(p.recipient ?? "");
  const at = recipient.lastIndexOf("@");
  return (at < 0 ? "" : recipient.slice(at + 1).toLowerCase()) || undefined;
};
/** For `routes:*:{domain}` scopes in messages. */
const domainOf = (p: Record<string, unknown>) => recipientDomain(p) ?? "{domain}";

export const route = {
  kind: "Route",
  title: (p) => p.name,
  description: "An inbound route. `secret` signs its requests (a Pulumi secret, returned once at creation).",
  sdk: { outputs: ["secret", "successCount", "errorCount", "errorsSinceLastSuccess", "lastRequestAt"] },
  inputs,
  apiFields: ["name", "url", "recipient", "attachments", "headers", "groupByMessageId", "stripReplies", "enabled"],
  createForm: CreateRouteForm,
  replaceOn: [],
  createOnly: {
    /** Signs the route's requests (a Pulumi secret, returned once at creation; empty when adopted). */
    secret: "secret",
  },
  listing: { listed: true },
  record: Route,
  created: RouteWithSecret,
  collectionPath: (c) => paths.routes(c.accountId),
  itemPath: (c, _p, id) => paths.route(c.accountId, id),
  // A key with only `routes:read:{domain}` may list routes only with that domain named; the twin of
  // a route is in the same domain, so the filter never hides it.
  listQuery: (p) => (recipientDomain(p) ? { domain: recipientDomain(p)! } : undefined),
  scopes: {
    read: (p) => ["routes:read:all", `routes:read:${domainOf(p)}`],
    write: (p) => ["routes:write:all", `routes:write:${domainOf(p)}`],
    delete: (p) => ["routes:delete:all", `routes:delete:${domainOf(p)}`],
  },
} satisfies Declaration<z.infer<typeof inputs>>;
