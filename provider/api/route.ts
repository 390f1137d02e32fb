// Inbound routes: mail to `recipient` is posted to `url`.
import { z } from "zod";
import { DeliveryCounters, Name, Timestamp, Uuid } from "./common";

export const HttpUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.hostname }).max(2048);

export const Route = z.object({
  object: z.literal("route"),
  id: Uuid,
  created_at: Timestamp,
  updated_at: Timestamp,
  name: z.string(),
  url: z.string(),
  recipient: z.string(),
  attachments: z.boolean(),
  headers: z.boolean(),
  group_by_message_id: z.boolean(),
  strip_replies: z.boolean(),
  enabled: z.boolean(),
  ...DeliveryCounters,
});
export type Route = z.infer<typeof Route>;

/** Creation returns the signing secret once. */
export const RouteWithSecret = Route.extend({ secret: z.string() });
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
