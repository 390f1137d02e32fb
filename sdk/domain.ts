import type * as pulumi from "@pulumi/pulumi";
import { domain } from "../provider/resources/domain";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = ["dnsRecords", "dnsValid", "lastDnsCheckAt", "rotationReady", "accountId"] as const;

export interface DomainArgs extends ArgsOf<typeof domain> {}

/** A DNS record to publish for the domain. */
export interface DnsRecord {
  type: string;
  host: string;
  value: string;
  required: boolean;
  propagated: boolean;
  label?: string;
}

/** Outputs the provider reshapes from the service record (provider/resources/domain.ts `outputsOf`). */
interface Reshaped {
  dnsRecords: DnsRecord[];
}

export interface Domain extends OutputsOf<typeof domain, (typeof OUTPUTS)[number], Reshaped> {}

/** A sending domain. Its `dnsRecords` output is ready to feed a DNS provider. */
export class Domain extends DeclaredResource {
  constructor(name: string, args: DomainArgs, opts?: pulumi.CustomResourceOptions) {
    super("Domain", domain, OUTPUTS, name, args, opts);
  }
}
