// Mandatory: at most 100 entries after canonicalisation and de-duplication (the service's limit;
// it answers 400 at apply, after the pull request is merged, so catch it at preview).
import type { ResourceValidation, ResourceValidationPolicy } from "@pulumi/policy";
import { keyAllowListCheck } from "../lib/allowList";

const FIX = "merge adjacent blocks into a shorter prefix or split the senders across several keys";

export const validateAllowListSize: ResourceValidation = keyAllowListCheck("tooMany", FIX);

export const allowListSize: ResourceValidationPolicy = {
  name: "ip-allow-list-max-entries",
  description: "An API key's ipAllowList may hold at most 100 entries after canonicalisation and de-duplication.",
  enforcementLevel: "mandatory",
  severity: "medium",
  remediationSteps: `Shorten the list: ${FIX}.`,
  validateResource: validateAllowListSize,
};
