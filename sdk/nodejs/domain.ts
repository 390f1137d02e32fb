import type * as pulumi from "@pulumi/pulumi";
import type { domain } from "../../provider/resources/domain";
import { type DomainFields, DomainRegistration } from "./generated/fields";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = ["dnsRecords", "dnsValid", "lastDnsCheckAt", "rotationReady", "accountId"] as const;

export interface DomainArgs extends ArgsOf<typeof domain, DomainFields> {}

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

export interface Domain extends OutputsOf<typeof domain, DomainFields, (typeof OUTPUTS)[number], Reshaped> {}

/** A sending domain. Its `dnsRecords` output is ready to feed a DNS provider. */
export class Domain extends DeclaredResource {
  constructor(name: string, args: DomainArgs, opts?: pulumi.CustomResourceOptions) {
    super("Domain", DomainRegistration, OUTPUTS, name, args, opts);
  }
}
