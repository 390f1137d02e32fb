// The smallest useful program: one API key for a CI job, restricted to the CI's egress range.
//   pulumi config set txmail:accountId <uuid>
//   pulumi config set --secret txmail:apiKey <key>
//   pulumi up
import * as txmail from "pulumi-txmail";

const key = new txmail.ApiKey("ci-sender", {
  label: "ci sender",
  // Sending from one domain only: a leaked key cannot send as any other domain of the account.
  scopes: ["messages:send:mail.example.com"],
  ipAllowList: ["203.0.113.0/24"],
});

export const keyId = key.id;
/** A Pulumi secret: `pulumi stack output secretKey --show-secrets`. */
export const secretKey = key.secretKey;
