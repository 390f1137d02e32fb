import * as txmail from "pulumi-txmail";

const mail = new txmail.Domain("mail", {
  domain: "mail.example.com",
  trackingSubdomain: "links",
});

export const dnsRecords = mail.dnsRecords; // feed these to your DNS provider
