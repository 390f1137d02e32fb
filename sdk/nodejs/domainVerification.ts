import type * as pulumi from "@pulumi/pulumi";
import type { domainVerification } from "../../provider/resources/domainVerification";
import type { DnsRecord } from "./domain";
import { type DomainVerificationFields, DomainVerificationRegistration } from "./generated/fields";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = ["verified", "dnsRecords", "dnsValid", "lastDnsCheckAt"] as const;

export interface DomainVerificationArgs extends ArgsOf<typeof domainVerification, DomainVerificationFields> {}

/** Outputs the provider reshapes from the service record (provider/resources/domainVerification.ts `outputsOf`). */
interface Reshaped {
  dnsRecords: DnsRecord[];
  verified: boolean;
}

export interface DomainVerification extends OutputsOf<
  typeof domainVerification,
  DomainVerificationFields,
  (typeof OUTPUTS)[number],
  Reshaped
> {}

/**
 * Waits until the service sees a domain's DNS records. Make it depend on the records your DNS
 * provider's resources publish (`dependsOn`), and make what needs a verified domain depend on it:
 *
 * ```ts
 * const domain = new txmail.Domain("mail", { domain: "mail.example.com" });
 * const records = domain.dnsRecords.apply((rs) => rs.map((r) => new cloudflare.Record(...)));
 * const verified = new txmail.DomainVerification("mail", { domain: domain.domain }, { dependsOn: records });
 * ```
 */
export class DomainVerification extends DeclaredResource {
  constructor(name: string, args: DomainVerificationArgs, opts?: pulumi.CustomResourceOptions) {
    super("DomainVerification", DomainVerificationRegistration, OUTPUTS, name, args, opts);
  }
}
