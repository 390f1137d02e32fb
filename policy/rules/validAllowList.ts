// Mandatory: every allow-list entry is a CIDR block or bare address the service reads the way the
// author meant. Ambiguous spellings (010.0.0.1, 10.1) are rejected rather than guessed, because
// parsers disagree on them and a guess can widen the list.
import type { ResourceValidation, ResourceValidationPolicy } from "@pulumi/policy";
import { keyAllowListCheck } from "../lib/allowList";

const FIX = "write a CIDR block or bare address such as 203.0.113.0/24, 198.51.100.7 or 2001:db8::/48";

export const validateAllowListEntries: ResourceValidation = keyAllowListCheck("invalid", FIX);

export const validAllowList: ResourceValidationPolicy = {
  name: "ip-allow-list-valid-entries",
  description:
    "Every ipAllowList entry of an API key or sub-account API key must be an unambiguous CIDR block or bare IPv4/IPv6 address.",
  enforcementLevel: "mandatory",
  severity: "high",
  remediationSteps: `Fix or remove the entry: ${FIX}.`,
  validateResource: validateAllowListEntries,
};
