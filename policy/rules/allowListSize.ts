// Mandatory: at most 100 entries after canonicalisation and de-duplication (the service's limit;
// it answers 400 at apply, after the pull request is merged, so catch it at preview).
import type { ResourceValidation, ResourceValidationPolicy } from "@pulumi/policy";
import { analyzeAllowList, where } from "../lib/allowList";
import { KEY_KINDS, kindOf, subject } from "../lib/resources";

const FIX = "merge adjacent blocks into a shorter prefix or split the senders across several keys";

export const validateAllowListSize: ResourceValidation = (args, reportViolation) => {
  const kind = kindOf(args.type, KEY_KINDS);
  if (!kind) return;
  const a = analyzeAllowList(args.props);
  if (a.state !== "known") return;
  if (a.tooMany.length > 0)
    reportViolation(`${subject(kind, args)}: ${a.tooMany.map((f) => `${where(f)} ${f.message}`).join("; ")}; ${FIX}.`);
};

export const allowListSize: ResourceValidationPolicy = {
  name: "ip-allow-list-max-entries",
  description: "An API key's ipAllowList may hold at most 100 entries after canonicalisation and de-duplication.",
  enforcementLevel: "mandatory",
  severity: "medium",
  remediationSteps: `Shorten the list: ${FIX}.`,
  validateResource: validateAllowListSize,
};
