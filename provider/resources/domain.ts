// Sending domains, addressed by name in paths. The DKIM private key is write-only (state keeps a
// digest). Outputs the DNS records to publish, ready to feed a DNS provider. Optionally waits,
// bounded, until the service sees valid DNS (check-dns answers from a 60 s cache).
import { z } from "zod";
import { CreateDomain, CreateDomainForm, DkimSelector, Domain, paths } from "../api";
import { isNotFound } from "../core/api";
import type { Declaration } from "../core/declaration";
import { keysToCamel } from "../core/casing";
import { Uuid } from "../api/common";
import { DnsRecordOutput, dnsRecordsOf, waitForDns } from "../dns";

/**
 * A program's explicit `null` (a YAML or JSON tenants file, plain JavaScript) means "not set": it is
 * never sent. The API takes these fields omitted or given at creation, and reads `null` in an update
 * as "unchanged" — the same as leaving the field to the service, which is what an unset input does.
 */
function unsetWhenNull<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === null ? undefined : v), schema);
}

const subdomain = <T extends z.ZodType>(schema: T, role: string) =>
  unsetWhenNull(schema).describe(
    `The ${role} subdomain (labels under the domain); unset: the service's default. Updated in place.`,
  );

const inputs = z.object({
  domain: CreateDomain.shape.domain
    .transform((d) => d.toLowerCase())
    .describe("The sending domain, e.g. `mail.example.com`. Changing it replaces the domain."),
  dkimPrivateKey: z
    .string()
    .regex(/-----BEGIN (RSA )?PRIVATE KEY-----/, "must be a PEM-encoded RSA private key")
    .optional()
    .describe(
      "Your own DKIM private key (PEM, RSA ≥ 1024 bits). Write-only: a secret input, never an output. Changing it " +
        "replaces the domain (delete first).",
    ),
  trackingSubdomain: subdomain(CreateDomain.shape.tracking_subdomain, "tracking"),
  returnPathSubdomain: subdomain(CreateDomain.shape.return_path_subdomain, "return-path"),
  subscriptionSubdomain: subdomain(CreateDomain.shape.subscription_subdomain, "subscription"),
  mediaSubdomain: subdomain(CreateDomain.shape.media_subdomain, "media"),
  dkimRotationIntervalDays: unsetWhenNull(CreateDomain.shape.dkim_rotation_interval_days).describe(
    "Days between DKIM key rotations; unset: the service's default. Updated in place.",
  ),
  /** Canonical (trimmed, lower case); "" is the service's default selector. */
  dkimSelector: unsetWhenNull(DkimSelector.optional()).describe(
    'DKIM selector, trimmed and lower-cased; "" (or blank) is the service\'s default selector. Updated in place.',
  ),
  /** Wait until DNS is valid: seconds to wait at most (0 or unset: do not wait). */
  waitForVerificationSeconds: z
    .number()
    .int()
    .min(0)
    .max(3600)
    .optional()
    .describe(
      "Wait up to this many seconds for the service to see valid DNS (progress in the engine's log). 0 = do not wait.",
    ),
});

export const domain = {
  kind: "Domain",
  title: (p) => p.domain,
  description: "A sending domain. Its `dnsRecords` output is ready to feed a DNS provider.",
  sdk: { outputs: ["dnsRecords", "dnsValid", "lastDnsCheckAt", "rotationReady", "accountId"] },
  inputs,
  apiFields: [
    "domain",
    "dkimPrivateKey",
    "trackingSubdomain",
    "returnPathSubdomain",
    "subscriptionSubdomain",
    "mediaSubdomain",
    "dkimRotationIntervalDays",
    "dkimSelector",
  ],
  createForm: CreateDomainForm,
  replaceOn: ["domain", "dkimPrivateKey"],
  writeOnly: ["dkimPrivateKey"],
  // The service keeps domain names unique per account: a replacement under the same name (a new
  // DKIM key) must delete the old domain first.
  deleteBeforeReplace: (olds, news) => olds.domain === news.domain,
  uniqueName: true,
  // Paths take the name, which outlives the domain: another stack's domain can be made under it once
  // this one is removed. The uuid tells them apart; `createdAt` too, for a state imported by name.
  naturalKey: { inputs: ["domain"], identity: ["createdAt"], nameOf: (r) => String(r.domain) },
  // Imported by name, as the service addresses it (`pulumi import txmail:index:Domain mail mail.example.com`).
  importId: {
    syntax: "<domain name>",
    format: (r) => String(r.domain),
    parse(text) {
      if (Uuid.safeParse(text).success)
        return { problem: "a domain is imported by its name (e.g. mail.example.com), not its id" };
      const name = CreateDomain.shape.domain.safeParse(text);
      return name.success
        ? { id: name.data.toLowerCase(), props: { domain: name.data.toLowerCase() } }
        : { problem: "must be a domain name such as mail.example.com" };
    },
  },
  listing: { listed: true },
  record: Domain,
  created: Domain,
  collectionPath: (c) => paths.domains(c.accountId),
  itemPath: (c, p, id) => paths.domain(c.accountId, String(p.domain ?? id)),
  // By name (the program's, else an id that is a name); an id alone that is a uuid (an `adoptId`) is
  // found in the list, as the service has no GET by id.
  async fetch({ api, conn }, props, id) {
    if (props.domain === undefined && Uuid.safeParse(id).success) {
      for await (const d of api.list(paths.domains(conn.accountId), Domain)) if (d.id === id) return d;
      return undefined;
    }
    try {
      return await api.get(paths.domain(conn.accountId, String(props.domain ?? id)), Domain);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  },
  scopes: {
    read: () => ["domains:read"],
    write: () => ["domains:write"],
    delete: (p) => ["domains:delete:all", `domains:delete:${String(p.domain)}`],
  },
  outputsOf: (r) => {
    const out = keysToCamel(r);
    // The service reports its default selector as null, takes "" for it (create: empty = default;
    // update: empty clears) and trims whitespace to it. State keeps "", so a program that says "" or
    // " " sees no difference, and a change back to the default is sent as "" (null would mean
    // "unchanged" to an update).
    out.dkimSelector = r.dkim_selector ?? "";
    out.dnsRecords = dnsRecordsOf(r);
    return out;
  },
  reshapedOutputs: {
    dnsRecords: z
      .array(DnsRecordOutput)
      .describe("The DNS records to publish for the domain, ready to feed a DNS provider."),
  },
  async reconcile(ctx, props, record) {
    const waitSeconds = Number(props.waitForVerificationSeconds ?? 0);
    if (waitSeconds <= 0 || record.dns_valid === true) return record;
    const name = String(props.domain);
    const result = await waitForDns(ctx, name, {
      deadline: Date.now() + waitSeconds * 1000,
      wanted: "required",
      urn: props.__urn,
    });
    if (result.verified) return result.record!;
    throw new Error(
      `domain ${name}: DNS not verified within ${waitSeconds} s. Publish the records in the ` +
        `dnsRecords output, then run pulumi up again (or lower waitForVerificationSeconds to 0 to not wait; ` +
        `a DomainVerification resource waits after the records are published, in the same up).`,
    );
  },
} satisfies Declaration<z.infer<typeof inputs>>;
