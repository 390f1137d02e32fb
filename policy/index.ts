// The txmail policy pack: `pulumi preview --policy-pack <this directory>`. See README.md.
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./policies";

new PolicyPack("txmail-policies", {
  description: "Guards txmail API keys (IP allow lists, scopes), webhook/route endpoints and credential rotation.",
  policies,
});
