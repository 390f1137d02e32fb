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
  success_count: z.number().int().describe("Requests the service has made to `url` that succeeded."),
  error_count: z.number().int().describe("Requests the service has made to `url` that failed."),
  errors_since_last_success: z
    .number()
    .int()
    .describe("Failed requests to `url` since the last one that succeeded (0 when the last one succeeded)."),
  last_request_at: Timestamp.nullable().describe(
    "When the service last made a request to `url` (RFC 3339); unset before the first.",
  ),
};

/** RFC 1123 host name, at most 253 characters, at least two labels (a sending domain or a website). */
export const Hostname = z
  .string()
  .max(253)
  .regex(
    /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/i,
    "must be a fully qualified host name such as mail.example.com",
  );

/**
 * What an enum value means, and its name in generated SDKs when its PascalCase value would not do
 * (e.g. `global`, a Python keyword: Pulumi's Python generator would name it `GLOBAL_`).
 */
export interface EnumValueDoc {
  description: string;
  name?: string;
}

/** The metadata key under which an enum's documentation reaches its JSON Schema (native/schema reads it). */
export const ENUM_DOCS = "enumDocs";

/** An enum type's documentation: what the type is, and each value. */
export interface EnumDocs {
  description: string;
  values: Record<string, EnumValueDoc>;
}

/**
 * A string enum documented as a whole and value by value; the values are the keys of `values`, in
 * order. A field using it describes itself as usual (`.describe()`); the enum's own texts stay.
 */
export function documentedEnum<const V extends string>(description: string, values: Record<V, EnumValueDoc>) {
  const docs: EnumDocs = { description, values };
  return z.enum(Object.keys(values) as V[]).meta({ [ENUM_DOCS]: docs });
}

/** `global` objects apply to every domain; `scoped` ones list their domains. */
export const ObjectScope = documentedEnum(
  "Which of the account's domains an object (a webhook, SMTP credentials) applies to.",
  {
    global: { name: "GlobalScope", description: "Every domain of the account; `domains` is empty." },
    scoped: { description: "Only the domains listed in `domains` (at least one)." },
  },
);
export type ObjectScope = z.infer<typeof ObjectScope>;

/** Name fields: 1–255 characters, not blank. */
export const Name = z.string().trim().min(1, "must not be blank").max(255);
