// The pattern of docs/guide/verifying-a-domain.md in one program: a Domain, its required records
// published through "the user's DNS provider" (the test-only plugin txmaildns, support/dnsPlugin.ts,
// standing for cloudflare.DnsRecord) and a DomainVerification that depends on them, then a key that
// needs the verified domain. Config: `domain`; `wrongLabel` publishes that record with a wrong value;
// `timeoutSeconds` (default 60).
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

/** txmaildns:index:Record (pulumi.CustomResource is abstract: this names the output it reads). */
class DnsRecord extends pulumi.CustomResource {
  declare readonly fqdn: pulumi.Output<string>;
  constructor(
    name: string,
    args: { name: pulumi.Input<string>; type: pulumi.Input<string>; value: pulumi.Input<string> },
    opts: pulumi.CustomResourceOptions = {},
  ) {
    super("txmaildns:index:Record", name, { ...args, ttl: 30, fqdn: undefined }, { version: "0.0.1", ...opts });
  }
}

const cfg = new pulumi.Config();
const name = cfg.require("domain");
const wrongLabel = cfg.get("wrongLabel");

const domain = new txmail.Domain("mail", { domain: name });
const published = ["DKIM", "Return-Path"].map((label) => {
  const record = domain.dnsRecords.apply((records) => records.find((r) => r.label === label)!);
  return new DnsRecord(`mail-${label.toLowerCase()}`, {
    name: record.host,
    type: record.type,
    value: label === wrongLabel ? "wrong.example.net" : record.value,
  });
});
const verification = new txmail.DomainVerification(
  "mail",
  { domain: domain.domain, timeoutSeconds: cfg.getNumber("timeoutSeconds") ?? 60 },
  { dependsOn: published },
);
const sender = new txmail.ApiKey(
  "sender",
  { label: `sender ${name}`, scopes: [`messages:send:${name}`] },
  { dependsOn: [verification] },
);

export const verified = verification.verified;
export const senderId = sender.id;
