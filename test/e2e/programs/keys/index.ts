// Driven entirely by stack config so a test can walk one stack through create, update, rotation
// and drift without editing code.
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();

const tenant = new txmail.SubAccount("tenant", {
  name: cfg.require("subName"),
  website: "shop.example.com",
  monthlyCredit: cfg.getNumber("credit") ?? 0,
  suspended: cfg.getBoolean("suspended") ?? false,
  suspensionReason: cfg.get("reason"),
  adoptId: cfg.get("adoptSubId"),
});

const ci = new txmail.ApiKey("ci", {
  label: cfg.require("keyLabel"),
  scopes: cfg.requireObject<string[]>("scopes"),
  ipAllowList: cfg.getObject<string[]>("allow") ?? [],
  rotation: cfg.get("rotation"),
});

const bootstrap = new txmail.SubAccountApiKey("bootstrap", {
  subAccountId: tenant.id,
  label: "bootstrap",
  scopes: ["routes:write:all", "webhooks:write:all", "domains:write"],
  rotation: cfg.get("bootstrapRotation"),
});

export const subAccountId = tenant.id;
export const subAccountStatus = tenant.status;
export const keyId = ci.id;
export const keyAllowList = ci.ipAllowList;
export const keySecret = ci.secretKey;
export const bootstrapId = bootstrap.id;
export const bootstrapSecret = bootstrap.secretKey;
