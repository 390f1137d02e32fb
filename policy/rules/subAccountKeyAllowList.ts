// Advisory: sub-account keys without an allow list. They are handed to tenants (the Tenant
// component's bootstrap and tenant keys are SubAccountApiKey resources), so they leave the
// operator's hands; an empty or missing list means the key works from any address.
import type { ResourceValidation, ResourceValidationPolicy } from "@pulumi/policy";
import { analyzeAllowList } from "../lib/allowList";
import { booleanSetting, readConfig } from "../lib/config";
import { type Kind, kindOf, subject } from "../lib/resources";

export const SUB_ACCOUNT_KEY_DEFAULTS = { includeApiKeys: false } as const;

export const validateSubAccountKeyAllowList: ResourceValidation = (args, reportViolation) => {
  const includeApiKeys = booleanSetting(readConfig(args), "includeApiKeys", SUB_ACCOUNT_KEY_DEFAULTS.includeApiKeys);
  const kinds: readonly Kind[] = includeApiKeys ? ["SubAccountApiKey", "ApiKey"] : ["SubAccountApiKey"];
  const kind = kindOf(args.type, kinds);
  if (!kind) return;
  const a = analyzeAllowList(args.props);
  // Unknown at preview: it may well be set; a list that is not a list is the entries rule's.
  if (a.state === "unknown" || (a.state === "known" && (a.list.notAList || hasEntries(a.list)))) return;
  const what = a.state === "absent" ? "has no ipAllowList" : "has an empty ipAllowList";
  reportViolation(
    `${subject(kind, args)} ${what}, so the key works from any address; ` +
      `set ipAllowList to the CIDR blocks its users send from, e.g. ["203.0.113.0/24"].`,
  );
};

function hasEntries(list: { strings: unknown[]; others: unknown[]; unknown: unknown[] }): boolean {
  return list.strings.length + list.others.length + list.unknown.length > 0;
}

export const subAccountKeyAllowList: ResourceValidationPolicy = {
  name: "sub-account-key-requires-allow-list",
  description: "Warns about sub-account API keys (optionally all API keys) without an ipAllowList.",
  enforcementLevel: "advisory",
  severity: "medium",
  configSchema: {
    properties: {
      includeApiKeys: {
        type: "boolean",
        default: SUB_ACCOUNT_KEY_DEFAULTS.includeApiKeys,
        description: "Also report the account's own API keys (ApiKey) without an allow list.",
      },
    },
  },
  validateResource: validateSubAccountKeyAllowList,
};
