// Driven by stack config so a test can walk one stack through no-ops, replacements, out-of-band
// removals and expiry of an account member and a suppression (and, when asked, a domain: objects the
// service addresses by a name, an address and a user id).
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();

export const memberId =
  cfg.getBoolean("member") === false
    ? ""
    : new txmail.AccountMember("dev", {
        email: "dev@corp.example.com",
        name: "Dev One",
        role: (cfg.get("role") ?? "Developer") as txmail.MemberRole,
      }).id;

export const suppressionId =
  cfg.getBoolean("suppression") === false
    ? ""
    : new txmail.Suppression("blocked", {
        email: "blocked@customer.example.com",
        domain: "mail.example.com",
        reason: cfg.get("reason") ?? "compliance list",
        expiresAt: cfg.require("expiresAt"),
      }).id;

export const domainId =
  cfg.getBoolean("domain") === true ? new txmail.Domain("readd", { domain: "readd.example.com" }).id : "";

// Adopting the account owner (whom the service never removes), when the test asks for it.
const owner = cfg.get("adoptOwner");
export const ownerId = owner
  ? new txmail.AccountMember("owner", { email: "owner@example.com", role: "Administrator", adoptId: owner }).id
  : "";
