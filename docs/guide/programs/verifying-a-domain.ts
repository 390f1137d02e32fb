// A tenant whose domain is published in Cloudflare and verified in the same `pulumi up`
// (docs/guide/verifying-a-domain.md). Type-checked against @pulumi/cloudflare in the test command.
import * as cloudflare from "@pulumi/cloudflare";
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const config = new pulumi.Config();
const zoneId = config.require("cloudflareZoneId"); // the Cloudflare zone of acme.example.com

const acme = new txmail.Tenant("acme", {
  website: "acme.example.com",
  domain: { domain: "mail.acme.example.com" },
  bootstrapKey: { ipAllowList: ["203.0.113.0/24"] },
});
const domain = acme.domain!;

// One Cloudflare record per record the service lists, found by its label: DKIM and Return-Path are
// required for sending, DMARC and Tracking are optional.
const published = ["DKIM", "Return-Path", "DMARC", "Tracking"].map((label) => {
  const record = domain.dnsRecords.apply((records) => {
    const found = records.find((r) => r.label === label);
    if (!found) throw new Error(`mail.acme.example.com lists no ${label} record`);
    return found;
  });
  return new cloudflare.DnsRecord(`acme-${label.toLowerCase()}`, {
    zoneId,
    name: record.host,
    type: record.type,
    content: record.value,
    ttl: 300,
    proxied: false,
  });
});

// Waits until the service sees the required records (at most 15 minutes), after they are published.
const verification = new txmail.DomainVerification(
  "acme",
  { domain: domain.domain, connection: acme.connection, timeoutSeconds: 900 },
  { dependsOn: published },
);

// What needs a verified domain comes after it: here, the key the application sends with.
const sender = new txmail.SubAccountApiKey(
  "acme-sender",
  {
    subAccountId: acme.subAccount.id,
    label: "acme sender",
    scopes: ["messages:send:mail.acme.example.com"],
  },
  { dependsOn: [verification] },
);

export const verified = verification.verified;
export const senderKey = sender.secretKey;
