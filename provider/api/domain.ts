// Sending domains. Paths address a domain by its name, not its id.
import { z } from "zod";
import { Hostname, Timestamp, Uuid } from "./common";

export const DnsRecord = z.object({
  type: z.string(),
  label: z.string().optional(),
  host: z.string(),
  content: z.string(),
  required: z.boolean(),
  propagated: z.boolean(),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

export const Domain = z.object({
  object: z.literal("domain"),
  id: Uuid,
  created_at: Timestamp,
  updated_at: Timestamp,
  domain: z.string(),
  account_id: Uuid,
  dns_records: z.array(DnsRecord),
  last_dns_check_at: Timestamp.nullable(),
  dns_valid: z.boolean(),
  tracking_subdomain: z.string().nullable(),
  return_path_subdomain: z.string().nullable(),
  subscription_subdomain: z.string().nullable(),
  media_subdomain: z.string().nullable(),
  dkim_rotation_interval_days: z.number().int().nullable(),
  dkim_selector: z.string().nullable(),
  dsn_recipient: z.string().nullable(),
  rotation_ready: z.boolean(),
});
export type Domain = z.infer<typeof Domain>;

/** Creates take these fields omitted or given; `null` is for updates only (= unchanged). */
const notNull = {
  error: (issue: { input?: unknown }) => (issue.input === null ? "must be omitted or given, not null" : undefined),
};

/** One DNS label (a subdomain prefix such as `track` or `bounces.mail`). */
const Subdomain = z
  .string(notNull)
  .max(253)
  .regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/i, "must be a DNS label such as 'track'");
const RotationDays = z.number(notNull).int().min(1).max(365);
/**
 * The DKIM selector as the service reads it: trimmed and lower-cased; empty (or whitespace only) means
 * the default selector; otherwise one DNS label of 1–62 lowercase letters, digits and hyphens, with no
 * hyphen at either end. The output is the canonical form.
 */
export const DkimSelector = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^$|^(?!-)[a-z0-9-]{1,62}(?<!-)$/,
    "must be empty (the default selector) or one DNS label: 1 to 62 letters, digits or '-', not starting or ending with '-'",
  );

/** In a create, the four subdomains and the rotation interval are omitted or given, never `null`. */
export const CreateDomain = z.strictObject({
  domain: Hostname,
  /** PEM RSA private key of at least 1024 bits; write-only, never returned. */
  dkim_private_key: z.string().min(1).optional(),
  tracking_subdomain: Subdomain.optional(),
  return_path_subdomain: Subdomain.optional(),
  subscription_subdomain: Subdomain.optional(),
  media_subdomain: Subdomain.optional(),
  dkim_rotation_interval_days: RotationDays.optional(),
  dkim_selector: DkimSelector.nullish(),
});
export type CreateDomain = z.infer<typeof CreateDomain>;

/** `domain` and `dkim_private_key` cannot change; omitted/null = unchanged; empty selector clears it. */
export const UpdateDomain = z.strictObject({
  tracking_subdomain: Subdomain.nullish(),
  return_path_subdomain: Subdomain.nullish(),
  subscription_subdomain: Subdomain.nullish(),
  media_subdomain: Subdomain.nullish(),
  dkim_rotation_interval_days: RotationDays.nullish(),
  dkim_selector: DkimSelector.nullish(),
});
export type UpdateDomain = z.infer<typeof UpdateDomain>;
