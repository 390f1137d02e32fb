import type * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const mail = new txmail.Domain("mail", { domain: "mail.example.com" });

// Publish mail.dnsRecords with your DNS provider's resources (one record per entry; the guide
// "Verifying a domain" has a complete program), and list them here: the verification waits for them.
const published: pulumi.Resource[] = [];

const verification = new txmail.DomainVerification(
  "mail",
  { domain: mail.domain, timeoutSeconds: 900 },
  { dependsOn: published },
);

export const verified = verification.verified; // true once the service sees every required record
