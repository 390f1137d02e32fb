// Advisory: keys holding scopes that reach every domain (`…:all`) or change/destroy state (write,
// delete, and the verbs that act like them), beyond a configured allowed set. A leaked key can do
// whatever its scopes allow, and the allow list does not help a key used from an allowed host.
// Malformed scopes are reported too: the provider's check rejects them only at apply.
import type { ResourceValidation, ResourceValidationPolicy } from "@pulumi/policy";
import { DOMAIN_SCOPE_PREFIXES, parseScope, scopeProblem } from "../../provider/api/scopes";
import { booleanSetting, readConfig, stringListSetting } from "../lib/config";
import { describeValue, readStringList } from "../lib/inputs";
import { KEY_KINDS, kindOf, subject } from "../lib/resources";

const POLICY_NAME = "api-key-broad-scopes";

export const KEY_SCOPES_DEFAULTS = {
  allowedScopes: [] as readonly string[],
  flagAllScopes: true,
  // write/delete, plus verbs that are writes or deletes in effect: wiping suppressions, adding,
  // updating or removing account members, suspending sub accounts.
  flaggedVerbs: ["write", "delete", "wipe", "add", "update", "remove", "suspend"] as readonly string[],
};

/** `allowed` lists exact scopes, or templates ending in `{domain}` that match any domain. */
function isAllowed(scope: string, allowed: readonly string[]): boolean {
  return allowed.some((a) =>
    a.endsWith("{domain}") ? parseScope(scope)?.domain !== undefined && scope.startsWith(a.slice(0, -8)) : a === scope,
  );
}

export const validateKeyScopes: ResourceValidation = (args, reportViolation) => {
  const kind = kindOf(args.type, KEY_KINDS);
  if (!kind) return;
  const config = readConfig(args);
  const allowed = stringListSetting(config, "allowedScopes", KEY_SCOPES_DEFAULTS.allowedScopes);
  const flagAll = booleanSetting(config, "flagAllScopes", KEY_SCOPES_DEFAULTS.flagAllScopes);
  const verbs = stringListSetting(config, "flaggedVerbs", KEY_SCOPES_DEFAULTS.flaggedVerbs);
  const read = readStringList(args.props, "scopes");
  if (read.state !== "known") return;

  const who = subject(kind, args);
  const seen = new Set<string>();
  for (const { index, value: scope } of read.value.strings) {
    if (seen.has(scope) || isAllowed(scope, allowed)) continue;
    seen.add(scope);
    const parsed = parseScope(scope);
    if (!parsed) {
      reportViolation(`${who}: scopes[${index}]: ${scopeProblem(scope)}; the provider rejects it at apply.`);
      continue;
    }
    const reasons: string[] = [];
    if (flagAll && scope.endsWith(":all")) reasons.push("reaches every domain");
    if (verbs.includes(parsed.verb)) reasons.push(`grants '${parsed.verb}'`);
    if (reasons.length === 0) continue;
    const prefix = DOMAIN_SCOPE_PREFIXES.find((p) => scope === `${p}all`);
    const narrower = prefix
      ? `use '${prefix}<your-domain>' instead, or `
      : "give it only to the key that needs it, or ";
    reportViolation(
      `${who}: scopes[${index}]: '${scope}' ${reasons.join(" and ")}; ${narrower}` +
        `add it to ${POLICY_NAME}.allowedScopes in the policy config if this key must have it.`,
    );
  }
  for (const { index, value } of read.value.others) {
    reportViolation(
      `${who}: scopes[${index}]: ${describeValue(value)} is not a scope; scopes are strings such as 'messages:send:mail.example.com'.`,
    );
  }
};

export const keyScopes: ResourceValidationPolicy = {
  name: POLICY_NAME,
  description:
    "Warns about API keys with `…:all`, write or delete scopes (and malformed scopes) beyond a configured allowed set.",
  enforcementLevel: "advisory",
  severity: "medium",
  configSchema: {
    properties: {
      allowedScopes: {
        type: "array",
        items: { type: "string" },
        default: [...KEY_SCOPES_DEFAULTS.allowedScopes],
        description:
          "Scopes never reported, exactly as written or as a template ending in {domain} (e.g. routes:write:{domain}).",
      },
      flagAllScopes: {
        type: "boolean",
        default: KEY_SCOPES_DEFAULTS.flagAllScopes,
        description: "Report scopes ending in :all (every domain).",
      },
      flaggedVerbs: {
        type: "array",
        items: { type: "string" },
        default: [...KEY_SCOPES_DEFAULTS.flaggedVerbs],
        description: "Report scopes whose verb is one of these (the verb of routes:write:all is write).",
      },
    },
  },
  validateResource: validateKeyScopes,
};
