// One Tenant whose people and a suppression are declared, driven by stack config.
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
// `people: none` removes every member and the suppression from the declaration.
const people = cfg.get("people") !== "none";

const tenant = new txmail.Tenant("acme", {
  website: "acme.example.com",
  bootstrapKey: { ipAllowList: ["127.0.0.1"] },
  members: !people
    ? undefined
    : {
        alice: {
          email: "alice@acme.example.com",
          name: "Alice",
          role: (cfg.get("aliceRole") ?? "Developer") as txmail.MemberRole,
        },
        bob: { email: "bob@acme.example.com", role: "Billing Manager" },
      },
  suppressions: !people
    ? undefined
    : {
        legal: { email: "blocked@customer.example.com", reason: "legal hold", expiresAt: cfg.require("expiresAt") },
      },
});

export const subAccountId = tenant.subAccount.id;
export const bootstrapKeyId = tenant.bootstrapKey.id;
export const alice = tenant.members.alice?.userId;
export const bob = tenant.members.bob?.userId;
export const summary = tenant.summary;
