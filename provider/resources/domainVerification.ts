// Waits until the service sees a domain's DNS records — the pattern of `aws.acm.CertificateValidation`:
// a Domain outputs its `dnsRecords`, the program publishes them with its DNS provider's resources,
// and a DomainVerification that depends on those records waits, within a timeout, until the
// service's check sees them. Resources that need a verified domain (sending keys, routes) then
// depend on it. It makes no object at the service: it declares the `watches` capability (so does
// provider/api/kinds.ts), whose create reads the domain and checks its DNS; read checks again (so
// `pulumi refresh` notices a record removed later), delete sends nothing.
import { z } from "zod";
import { CreateDomain, Domain, paths } from "../api";
import { documentedEnum } from "../api/common";
import { domain } from "./domain";
import type { Ctx, Declaration, Props } from "../core/declaration";
import { type DnsRecordOut, DnsRecordOutput, type Wanted, checkOnce, dnsRecordsOf, unseen, waitForDns } from "../dns";

const MAX_TIMEOUT_SECONDS = 3600;

const RecordsToVerify = documentedEnum("Which of a domain's DNS records a DomainVerification waits for.", {
  required: { description: "The records the service requires for sending (DKIM, Return-Path)." },
  all: { description: "Every record the domain lists, the optional ones too (DMARC, tracking, subdomains)." },
});
const DEFAULT_TIMEOUT_SECONDS = 600;

const inputs = z.object({
  domain: CreateDomain.shape.domain
    .transform((d) => d.toLowerCase())
    .describe(
      "The domain's name, as the Domain resource has it (e.g. `domain.domain`). Use the same `connection` as the " +
        "Domain (a tenant's key for a tenant's domain). Changing it verifies the other domain.",
    ),
  recordsToVerify: RecordsToVerify.optional().describe(
    "`required` (default): the records the service requires for sending (DKIM, Return-Path). `all`: every record " +
      "the domain lists (also DMARC, tracking and the optional subdomains). Changing it verifies again.",
  ),
  timeoutSeconds: z
    .number({ error: "must be a number of seconds" })
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1 (a verification always checks once)")
    .max(MAX_TIMEOUT_SECONDS, `must be at most ${MAX_TIMEOUT_SECONDS} (one hour)`)
    .optional()
    .describe(
      `How long to wait for the records, in seconds (1–${MAX_TIMEOUT_SECONDS}, default ${DEFAULT_TIMEOUT_SECONDS}). ` +
        "The service re-checks at most once a minute; the first check is at once.",
    ),
});

const wantedOf = (props: Props): Wanted => (props.recordsToVerify === "all" ? "all" : "required");

/** The service's answer, with whether every wanted record was seen (`outputsOf` reads it). */
const withVerdict = (record: Record<string, unknown>, props: Props) => ({
  ...record,
  verified: unseen(record, wantedOf(props)).length === 0,
});

export const domainVerification = {
  kind: "DomainVerification",
  title: (p) => p.domain,
  description:
    "Waits until the service sees a domain's DNS records, so one `pulumi up` can create a Domain, publish its " +
    "`dnsRecords` with a DNS provider's resources (make this resource depend on them) and go on with what needs a " +
    "verified domain. It makes nothing at the service; deleting it deletes nothing.",
  sdk: {
    outputs: ["verified", "dnsRecords", "dnsValid", "lastDnsCheckAt"],
    doc: [
      "Waits until the service sees a domain's DNS records. Make it depend on the records your DNS",
      "provider's resources publish (`dependsOn`), and make what needs a verified domain depend on it:",
      "",
      "```ts",
      'const domain = new txmail.Domain("mail", { domain: "mail.example.com" });',
      "const records = domain.dnsRecords.apply((rs) => rs.map((r) => new cloudflare.Record(...)));",
      'const verified = new txmail.DomainVerification("mail", { domain: domain.domain }, { dependsOn: records });',
      "```",
    ].join("\n"),
  },
  inputs,
  apiFields: [],
  // The diff compares the domain's name (a new one replaces) and recordsToVerify (applied by
  // `reconcile`); a different timeout changes nothing once verified.
  replaceOn: ["domain"],
  stateFields: ["recordsToVerify"],
  listing: { listed: false, unlisted: (count) => `${count} domain verification(s): not objects at the service` },
  watches: {
    missing: (p, accountId) =>
      `domain ${JSON.stringify(String(p.domain ?? ""))} is not a domain of account ${accountId} (the account of ` +
      "this resource's key). Name a domain that exists — a Domain resource's `domain` output — and give this " +
      "resource the same connection as that Domain (a tenant's domain needs the tenant's key).",
  },
  // Imported by the domain's name, exactly as a Domain is: the read then checks its DNS.
  importId: domain.importId,
  record: Domain,
  created: Domain,
  idOf: (r) => String(r.domain),
  collectionPath: (c) => paths.domains(c.accountId),
  itemPath: (c, p, id) => paths.domain(c.accountId, String(p.domain ?? id)),
  scopes: {
    read: () => ["domains:read"],
    // check-dns is a write for the service's scopes (docs/contract/scopes.md).
    write: () => ["domains:write"],
    delete: () => [],
  },
  outputsOf: (r) => ({
    domain: r.domain,
    dnsRecords: dnsRecordsOf(r),
    dnsValid: r.dns_valid === true,
    lastDnsCheckAt: r.last_dns_check_at ?? null,
    // withVerdict's verdict for the program's recordsToVerify; a bare record: its required records seen.
    verified: typeof r.verified === "boolean" ? r.verified : unseen(r, "required").length === 0,
  }),
  reshapedOutputs: {
    dnsRecords: z
      .array(DnsRecordOutput)
      .describe("The domain's records as the service's last check saw them (`propagated`: seen)."),
    verified: z.boolean().describe("Every record of `recordsToVerify` was seen by the service's last check."),
  },
  // A refresh that found a record gone leaves `verified` false: the next `up` waits for it again.
  unsettled: (state) => (state.verified === false ? ["verified"] : []),
  // Refresh: the service checks again (answering from its one-minute cache when asked sooner); a
  // key without `domains:write`, or managed DNS down, still reads what the service saw last.
  async fetch(ctx, props, id) {
    const name = String(props.domain ?? id);
    const checked = await checkOnce(ctx, name).catch(() => undefined);
    if (checked?.kind === "gone") return undefined;
    const record =
      checked?.kind === "seen" ? checked.record : await ctx.api.get(paths.domain(ctx.conn.accountId, name), Domain);
    return withVerdict(record, props);
  },
  async reconcile(ctx, props) {
    const name = String(props.domain);
    const seconds = Number(props.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS);
    const result = await waitForDns(ctx, name, {
      deadline: Date.now() + seconds * 1000,
      wanted: wantedOf(props),
      urn: props.__urn,
    });
    if (!result.verified) throw new Error(notVerified(ctx, name, seconds, wantedOf(props), result));
    return withVerdict(result.record!, props);
  },
} satisfies Declaration<z.infer<typeof inputs>>;

/** The timeout's message: each record not seen yet, what to publish, and that nothing was changed. */
function notVerified(
  ctx: Ctx,
  name: string,
  seconds: number,
  wanted: Wanted,
  result: { record?: Record<string, unknown>; checks: number; unavailable?: string },
): string {
  const lines = [`domain ${name}: DNS not verified within ${seconds} s (${result.checks} check(s)).`];
  const missing: DnsRecordOut[] = result.record ? unseen(result.record, wanted) : [];
  if (missing.length > 0) {
    lines.push("Records the service has not seen yet (publish each at your DNS provider):");
    for (const d of missing)
      lines.push(
        `  - ${d.type} ${d.host} → ${JSON.stringify(d.value)} (${d.label ?? "record"}, ${d.required ? "required" : "optional"})`,
      );
  }
  if (result.unavailable) lines.push(`The service could not check DNS at the last attempt: ${result.unavailable}`);
  lines.push(
    `DNS may take a while to propagate: run \`pulumi up\` again, or raise timeoutSeconds. The domain itself ` +
      `(account ${ctx.conn.accountId}) was not changed.`,
  );
  return lines.join("\n");
}
