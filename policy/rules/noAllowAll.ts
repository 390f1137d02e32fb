// Mandatory: no key may allow every address, whatever the spelling (0.0.0.0/0, ::/0,
// 0:0:0:0:0:0:0:0/0, ::ffff:0:0/96, 10.0.0.0/0, 0/0, …) or however split (0.0.0.0/1 +
// 128.0.0.0/1). The service rejects the plain forms only; the rest would reach it as real rules.
import type { ResourceValidation, ResourceValidationPolicy } from "@pulumi/policy";
import { keyAllowListCheck } from "../lib/allowList";

export const validateNoAllowAll: ResourceValidation = keyAllowListCheck("allowAll");

export const noAllowAll: ResourceValidationPolicy = {
  name: "ip-allow-list-no-allow-all",
  description:
    "API keys and sub-account API keys must not allow every IPv4 or IPv6 address, in any spelling or by entries that together cover a whole family.",
  enforcementLevel: "mandatory",
  severity: "critical",
  remediationSteps: "Replace the entry with the CIDR blocks your senders use, e.g. 203.0.113.0/24.",
  validateResource: validateNoAllowAll,
};
