// Key rotation without downtime. Change `rotation` (any value; a date is a good habit):
//   pulumi config set rotation 2026-12
//   pulumi up
// The provider creates the new key first, the program's consumers get the new secret, and only
// then is the old key deleted (Pulumi's create-before-delete replacement).
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();

const tenant = new txmail.SubAccount("tenant", { name: "Rotating Tenant", website: "rotate.example.com" });

const key = new txmail.SubAccountApiKey("app", {
  subAccountId: tenant.id,
  label: "app sender",
  scopes: ["messages:send:mail.rotate.example.com"],
  ipAllowList: ["198.51.100.0/24"],
  rotation: cfg.get("rotation") ?? "initial",
});

export const keyId = key.id;
export const secretKey = key.secretKey;
