// Inbound routes: mail to `recipient` is posted to `url`.
import { z } from "zod";
import { DeliveryCounters, Name, Timestamp, Uuid } from "./common";
import type { CreateForm } from "./createForm";
import { ListOf } from "./common";
import { A, create, read, remove, update } from "./endpoint";
import { defineKind, familyScopes, manage } from "./kind";

export const HttpUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.hostname }).max(2048);

export const Route = z.object({
  object: z.literal("route").describe("The record's type: always `route`."),
  id: Uuid.describe("The route's id."),
  created_at: Timestamp.describe("When the route was created (RFC 3339)."),
  updated_at: Timestamp.describe("When the route was last changed (RFC 3339)."),
  name: z.string().describe("The route's name."),
  url: z.string().describe("Where inbound mail is posted."),
  recipient: z.string().describe('Recipient filter: an address or `*@domain`; "" = all inbound mail.'),
  attachments: z.boolean().describe("Whether attachments are posted with the message."),
  headers: z.boolean().describe("Whether the message's headers are posted."),
  group_by_message_id: z.boolean().describe("Whether posts are grouped by message id."),
  strip_replies: z.boolean().describe("Whether quoted replies are stripped from the posted text."),
  enabled: z.boolean().describe("Whether the route posts mail."),
  ...DeliveryCounters,
});
export type Route = z.infer<typeof Route>;

/** Creation returns the signing secret once. */
export const RouteWithSecret = Route.extend({
  secret: z.string().describe("The secret the route's requests are signed with."),
});
export type RouteWithSecret = z.infer<typeof RouteWithSecret>;

/** `recipient` "" means no filter; an address or `*@domain` pattern otherwise. */
const Recipient = z.string().max(255);

const RouteFlags = {
  attachments: z.boolean(),
  headers: z.boolean(),
  group_by_message_id: z.boolean(),
  strip_replies: z.boolean(),
  enabled: z.boolean(),
};

export const CreateRoute = z.strictObject({
  name: Name,
  url: HttpUrl,
  recipient: Recipient,
  attachments: RouteFlags.attachments.optional(),
  headers: RouteFlags.headers.optional(),
  group_by_message_id: RouteFlags.group_by_message_id.optional(),
  strip_replies: RouteFlags.strip_replies.optional(),
  enabled: RouteFlags.enabled.optional(),
});
export type CreateRoute = z.infer<typeof CreateRoute>;

/** What a route's create stores (createForm.ts): the flags left out; other values as sent. */
export const CreateRouteForm = {
  defaults: { attachments: false, headers: false, group_by_message_id: false, strip_replies: false, enabled: true },
} as const satisfies CreateForm<CreateRoute>;

export const UpdateRoute = z.strictObject({
  name: Name.nullish(),
  url: HttpUrl.nullish(),
  recipient: Recipient.nullish(),
  attachments: RouteFlags.attachments.nullish(),
  headers: RouteFlags.headers.nullish(),
  group_by_message_id: RouteFlags.group_by_message_id.nullish(),
  strip_replies: RouteFlags.strip_replies.nullish(),
  enabled: RouteFlags.enabled.nullish(),
});
export type UpdateRoute = z.infer<typeof UpdateRoute>;

export const routeEndpoints = {
  listRoutes: read(`${A}/routes`, ListOf(Route)),
  createRoute: create(`${A}/routes`, CreateRoute, RouteWithSecret),
  getRoute: read(`${A}/routes/{route_id}`, Route),
  updateRoute: update(`${A}/routes/{route_id}`, UpdateRoute, Route),
  deleteRoute: remove(`${A}/routes/{route_id}`),
} as const;

/** A route is tied to its recipient's domain (docs/contract/scopes.md#domain-association); with no recipient, to none. */
export const RouteKind = defineKind({
  order: 60,
  endpoint: true,
  managed: true,
  manage: manage({ recipient: "text" }, (o) => {
    const at = (o.recipient ?? "").lastIndexOf("@");
    return familyScopes("routes", [at < 0 ? undefined : (o.recipient ?? "").slice(at + 1)]);
  }),
});
