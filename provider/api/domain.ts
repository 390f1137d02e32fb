// Sending domains. Paths address a domain by its name, not its id.
import { z } from "zod";
import { Hostname, Timestamp, Uuid } from "./common";
import type { CreateForm } from "./createForm";
import { ListOf } from "./common";
import { A, action, create, read, remove, update } from "./endpoint";
import { defineKind, manage, narrowest } from "./kind";

export const DnsRecord = z
  .object({
    type: z.string().describe("The record's type: `CNAME`, `TXT`, `MX`, …"),
    label: z.string().optional().describe("A short label the service gives the record, when it gives one."),
    host: z.string().describe("The name to publish the record under."),
    content: z.string().describe("The value to publish."),
    required: z.boolean().describe("Whether the record must be published for the domain's DNS to be valid."),
    propagated: z.boolean().describe("Whether the service has seen the record in DNS."),
  })
  .describe("A DNS record to publish for the domain.");
export type DnsRecord = z.infer<typeof DnsRecord>;

export const Domain = z.object({
  object: z.literal("domain").describe("The record's type: always `domain`."),
  id: Uuid.describe("The domain's id (the service's paths address a domain by its name instead)."),
  created_at: Timestamp.describe("When the domain was added (RFC 3339)."),
  updated_at: Timestamp.describe("When the domain was last changed (RFC 3339)."),
  domain: z.string().describe("The domain's name, e.g. `mail.example.com`."),
  account_id: Uuid.describe("The account the domain belongs to."),
  dns_records: z.array(DnsRecord).describe("The DNS records to publish for the domain."),
  last_dns_check_at: Timestamp.nullable().describe(
    "When the service last checked the domain's DNS records (RFC 3339); unset before the first check.",
  ),
  dns_valid: z
    .boolean()
    .describe(
      "Whether the service has seen every required DNS record; mail is sent only from a domain with valid DNS.",
    ),
  tracking_subdomain: z
    .string()
    .nullable()
    .describe("The tracking subdomain (labels under the domain); unset: the service's default."),
  return_path_subdomain: z
    .string()
    .nullable()
    .describe("The return-path subdomain (labels under the domain); unset: the service's default."),
  subscription_subdomain: z
    .string()
    .nullable()
    .describe("The subscription subdomain (labels under the domain); unset: the service's default."),
  media_subdomain: z
    .string()
    .nullable()
    .describe("The media subdomain (labels under the domain); unset: the service's default."),
  dkim_rotation_interval_days: z
    .number()
    .int()
    .nullable()
    .describe("Days between DKIM key rotations; unset: the service's default."),
  dkim_selector: z.string().nullable().describe("The DKIM selector; unset: the service's default selector."),
  dsn_recipient: z
    .string()
    .nullable()
    .describe(
      "The recipient of the domain's delivery status notifications (DSN) as the service reports it; unset when none.",
    ),
  rotation_ready: z
    .boolean()
    .describe("Whether the domain is ready for its next DKIM key rotation, as the service reports it."),
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

/**
 * What a domain's create stores (createForm.ts): the name in lower case; the selector canonical, ""
 * kept as unset (the default selector, reported as null). No defaults: the subdomains and the
 * rotation interval left out are the service's own choice (reported as null).
 */
export const CreateDomainForm = {
  defaults: {},
  stored: {
    domain: (name) => name.toLowerCase(),
    dkim_selector: (selector) => DkimSelector.parse(selector) || undefined,
  },
} as const satisfies CreateForm<CreateDomain>;

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

export const domainEndpoints = {
  listDomains: read(`${A}/domains`, ListOf(Domain)),
  createDomain: create(`${A}/domains`, CreateDomain, Domain),
  getDomain: read(`${A}/domains/{domain}`, Domain),
  updateDomain: update(`${A}/domains/{domain}`, UpdateDomain, Domain),
  deleteDomain: remove(`${A}/domains/{domain}`),
  checkDomainDns: action(`${A}/domains/{domain}/check-dns`, Domain),
} as const;

/** `domains:read` and `domains:write` have no `{domain}` form; `domains:delete` has. */
export const DomainKind = defineKind({
  order: 40,
  managed: true,
  manage: manage({ domain: "text" }, (o) => ["domains:read", "domains:write", narrowest("domains:delete:", o.domain)]),
});
/** check-dns is a domains write; the domain is read first. Neither has a `{domain}` form. */
export const DomainVerificationKind = defineKind({
  order: 50,
  managed: true,
  watches: "Domain",
  manage: manage({}, () => ["domains:read", "domains:write"]),
});
