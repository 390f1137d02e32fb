import * as pulumi from "@pulumi/pulumi";
import type { CommonArgs } from "./internal/common";
import { TxmailResource } from "./internal/txmailResource";

export interface DomainArgs extends CommonArgs {
  /** The sending domain, e.g. `mail.example.com`. Changing it replaces the domain. */
  domain: pulumi.Input<string>;
  /** Your own DKIM private key (PEM, RSA ≥ 1024 bits). Write-only: a secret input, never an output. Changing it replaces the domain (delete first). */
  dkimPrivateKey?: pulumi.Input<string>;
  trackingSubdomain?: pulumi.Input<string>;
  returnPathSubdomain?: pulumi.Input<string>;
  subscriptionSubdomain?: pulumi.Input<string>;
  mediaSubdomain?: pulumi.Input<string>;
  dkimRotationIntervalDays?: pulumi.Input<number>;
  dkimSelector?: pulumi.Input<string>;
  /** Wait up to this many seconds for the service to see valid DNS (progress in the engine's log). 0 = do not wait. */
  waitForVerificationSeconds?: pulumi.Input<number>;
}

/** A DNS record to publish for the domain. */
export interface DnsRecord {
  type: string;
  host: string;
  value: string;
  required: boolean;
  propagated: boolean;
  label?: string;
}

/** A sending domain. Its `dnsRecords` output is ready to feed a DNS provider. */
export class Domain extends TxmailResource {
  declare readonly domain: pulumi.Output<string>;
  declare readonly dnsRecords: pulumi.Output<DnsRecord[]>;
  declare readonly dnsValid: pulumi.Output<boolean>;
  declare readonly lastDnsCheckAt: pulumi.Output<string | null>;
  declare readonly rotationReady: pulumi.Output<boolean>;
  declare readonly trackingSubdomain: pulumi.Output<string | null>;
  declare readonly returnPathSubdomain: pulumi.Output<string | null>;
  declare readonly subscriptionSubdomain: pulumi.Output<string | null>;
  declare readonly mediaSubdomain: pulumi.Output<string | null>;
  declare readonly dkimRotationIntervalDays: pulumi.Output<number | null>;
  /** "" when the domain uses the service's default selector. */
  declare readonly dkimSelector: pulumi.Output<string | null>;
  declare readonly accountId: pulumi.Output<string>;

  constructor(name: string, args: DomainArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Domain",
      name,
      args,
      {
        domain: args.domain,
        dkimPrivateKey: args.dkimPrivateKey === undefined ? undefined : pulumi.secret(args.dkimPrivateKey),
        trackingSubdomain: args.trackingSubdomain,
        returnPathSubdomain: args.returnPathSubdomain,
        subscriptionSubdomain: args.subscriptionSubdomain,
        mediaSubdomain: args.mediaSubdomain,
        dkimRotationIntervalDays: args.dkimRotationIntervalDays,
        dkimSelector: args.dkimSelector,
        waitForVerificationSeconds: args.waitForVerificationSeconds,
        dnsRecords: undefined,
        dnsValid: undefined,
        lastDnsCheckAt: undefined,
        rotationReady: undefined,
        accountId: undefined,
      },
      opts,
    );
  }
}
