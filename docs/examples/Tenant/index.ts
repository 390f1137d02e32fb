import * as txmail from "pulumi-txmail";

const acme = new txmail.Tenant("acme", {
  website: "acme.example.com",
  domain: { domain: "mail.acme.example.com" },
  bootstrapKey: { ipAllowList: ["203.0.113.0/24"] },
  routes: {
    support: {
      name: "support",
      url: "https://acme.example.com/hooks/inbound",
      recipient: "support@mail.acme.example.com",
    },
  },
});

export const dnsRecords = acme.domain!.dnsRecords; // feed these to your DNS provider
// Then wait until the service sees them (dependsOn: the records your DNS provider's resources publish):
const verification = new txmail.DomainVerification("acme", {
  domain: acme.domain!.domain,
  connection: acme.connection,
});
export const verified = verification.verified;
export const summary = acme.summary;
