import * as txmail from "pulumi-txmail";

const ci = new txmail.ApiKey("ci-sender", {
  label: "ci sender",
  scopes: ["messages:send:mail.example.com"],
  ipAllowList: ["203.0.113.0/24"],
});

export const secretKey = ci.secretKey; // a Pulumi secret
