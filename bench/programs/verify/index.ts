// N domains (`count`, named `<prefix>-<i>.bench.example.com`), each with a DomainVerification of its
// required records. `publish: program` publishes them in the program itself, through the test-only
// DNS provider txmaildns (support/dnsPlugin.ts) the verification depends on; `publish: outside`
// leaves them to someone else (the benchmark's own publisher, standing for a DNS team).
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

/** txmaildns:index:Record (pulumi.CustomResource is abstract: this names the output it reads). */
class DnsRecord extends pulumi.CustomResource {
  declare readonly fqdn: pulumi.Output<string>;
  constructor(
    name: string,
    args: { name: pulumi.Input<string>; type: pulumi.Input<string>; value: pulumi.Input<string> },
  ) {
    super("txmaildns:index:Record", name, { ...args, ttl: 30, fqdn: undefined }, { version: "0.0.1" });
  }
}

const cfg = new pulumi.Config();
const count = cfg.requireNumber("count");
const prefix = cfg.require("prefix");
const inProgram = cfg.require("publish") === "program";

const verified: pulumi.Output<boolean>[] = [];
for (let i = 0; i < count; i++) {
  const name = `${prefix}-${i}`;
  const domain = new txmail.Domain(name, { domain: `${name}.bench.example.com` });
  const records = inProgram
    ? ["DKIM", "Return-Path"].map((label) => {
        const r = domain.dnsRecords.apply((rs) => rs.find((x) => x.label === label)!);
        return new DnsRecord(`${name}-${label.toLowerCase()}`, { name: r.host, type: r.type, value: r.value });
      })
    : [];
  const verification = new txmail.DomainVerification(
    name,
    { domain: domain.domain, timeoutSeconds: 600 },
    { dependsOn: records },
  );
  verified.push(verification.verified);
}

export const allVerified = pulumi.all(verified).apply((v) => v.length === count && v.every(Boolean));
