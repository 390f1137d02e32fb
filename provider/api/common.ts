// Building blocks shared by every record of the v2 API.
//
// Records (responses) are parsed with plain `z.object`, which tolerates and drops unknown fields so
// the client keeps working when the service adds fields. Request bodies are `z.strictObject`: the
// emulator validates requests with them, so a provider that sends a misspelt or camelCase field gets
// a 400 instead of being silently forgiven.
import { z } from "zod";

/** RFC 3339 timestamp as the service prints it (UTC `Z` or an explicit offset). */
export const Timestamp = z.iso.datetime({ offset: true });
/**
 * Ids. Records carry RFC 4122-shaped uuids in practice, but the public description promises only the
 * 8-4-4-4-12 hex form (any version and variant digits), and one stricter check would fail a whole list
 * page over one odd id. So any such string is an id.
 */
export const Uuid = z.guid("must be an id: 8-4-4-4-12 hexadecimal digits");

/** The v2 error body: exactly one property, `message`. There is no machine-readable code. */
export const ErrorBody = z.strictObject({ message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Delete operations and ping answer `{ message }`. */
export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const Pagination = z.object({
  has_more: z.boolean(),
  next_cursor: z.string().nullish(),
  previous_cursor: z.string().nullish(),
});
export type Pagination = z.infer<typeof Pagination>;

/** The list envelope of every list endpoint, generic over its item schema. */
export function ListOf<T extends z.ZodType>(item: T) {
  return z.object({ object: z.literal("list"), data: z.array(item), pagination: Pagination });
}
export type List<T> = { object: "list"; data: T[]; pagination: Pagination };

/** Counters shared by routes and webhooks (read-only, never part of a diff). */
export const DeliveryCounters = {
  success_count: z.number().int(),
  error_count: z.number().int(),
  errors_since_last_success: z.number().int(),
  last_request_at: Timestamp.nullable(),
};

/** RFC 1123 host name, at most 253 characters, at least two labels (a sending domain or a website). */
export const Hostname = z
  .string()
  .max(253)
  .regex(
    /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/i,
    "must be a fully qualified host name such as mail.example.com",
  );

/** `global` objects apply to every domain; `scoped` ones list their domains. */
export const ObjectScope = z.enum(["global", "scoped"]);
export type ObjectScope = z.infer<typeof ObjectScope>;

/** Name fields: 1–255 characters, not blank. */
export const Name = z.string().trim().min(1, "must not be blank").max(255);
