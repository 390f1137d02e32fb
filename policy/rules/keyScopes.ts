// Advisory: keys holding scopes that reach every domain (`…:all`) or change/destroy state (write,
// delete, and the verbs that act like them), beyond a configured allowed set. A leaked key can do
// whatever its scopes allow, and the allow list does not help a key used from an allowed host.
// Malformed scopes are reported too: the provider's check rejects them only at apply.
// A stack policy, because what a key needs depends on the objects managed with it (lib/managed.ts):
// scopes those objects need are not reported. One finding per key lists every broad scope.
import type { StackValidation, StackValidationPolicy } from "@pulumi/policy";
import { DOMAIN_SCOPE_PREFIXES, parseScope, scopeProblem } from "../../provider/api/scopes";
import { booleanSetting, type Config, readConfig, stringListSetting } from "../lib/config";
import { scopesNeededByKey } from "../lib/managed";
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

interface Finding {
  index: number;
  text: string;
  /** Higher first: malformed (fails at apply), then every domain and a writing verb, then either. */
  rank: number;
}

/** What is broad about each scope of a key, once per scope; `needed` scopes are the key's job. */
export function keyScopeFindings(props: object, config: Config, needed: ReadonlySet<string> = new Set()): Finding[] {
  const allowed = stringListSetting(config, "allowedScopes", KEY_SCOPES_DEFAULTS.allowedScopes);
  const flagAll = booleanSetting(config, "flagAllScopes", KEY_SCOPES_DEFAULTS.flagAllScopes);
  const verbs = stringListSetting(config, "flaggedVerbs", KEY_SCOPES_DEFAULTS.flaggedVerbs);
  const read = readStringList(props, "scopes");
  if (read.state !== "known") return [];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const { index, value: scope } of read.value.strings) {
    if (seen.has(scope) || needed.has(scope) || isAllowed(scope, allowed)) continue;
    seen.add(scope);
    const parsed = parseScope(scope);
    if (!parsed) {
      findings.push({
        index,
        rank: 4,
        text: `scopes[${index}]: ${scopeProblem(scope)}; the provider rejects it at apply`,
      });
      continue;
    }
    const all = flagAll && scope.endsWith(":all");
    const verb = verbs.includes(parsed.verb);
    if (!all && !verb) continue;
    const reasons = [...(all ? ["reaches every domain"] : []), ...(verb ? [`grants '${parsed.verb}'`] : [])];
    const prefix = DOMAIN_SCOPE_PREFIXES.find((p) => scope === `${p}all`);
    const instead = prefix ? ` (use '${prefix}<your-domain>')` : "";
    findings.push({
      index,
      rank: all && verb ? 3 : verb ? 2 : 1,
      text: `'${scope}' ${reasons.join(" and ")}${instead}`,
    });
  }
  for (const { index, value } of read.value.others) {
    findings.push({
      index,
      rank: 4,
      text: `scopes[${index}]: ${describeValue(value)} is not a scope; scopes are strings such as 'messages:send:mail.example.com'`,
    });
  }
  return findings.sort((a, b) => b.rank - a.rank || a.index - b.index);
}

/** One message for a key: every broad scope, most severe first. */
export function keyScopesMessage(who: string, findings: readonly Finding[]): string {
  const n = findings.length;
  return (
    `${who}: ${n} scope${n === 1 ? "" : "s"} broader than ${n === 1 ? "it needs" : "they need"}: ` +
    `${findings.map((f) => f.text).join("; ")}. Give each key only what it uses (a Tenant's bootstrap key gets ` +
    `exactly what its objects need), or add the scope to ${POLICY_NAME}.allowedScopes in the policy config if this key must have it.`
  );
}

export const validateKeyScopes: StackValidation = (args, reportViolation) => {
  const config = readConfig(args);
  const needs = scopesNeededByKey(args.resources);
  for (const r of args.resources) {
    const kind = kindOf(r.type, KEY_KINDS);
    if (!kind) continue;
    const needed = needs.get(r.urn);
    // An object managed with this key has inputs unknown at preview: what it needs is known at `pulumi up`.
    if (needed === "unknown") continue;
    const findings = keyScopeFindings(r.props, config, needed);
    if (findings.length > 0) reportViolation(keyScopesMessage(subject(kind, r), findings), r.urn);
  }
};

export const keyScopes: StackValidationPolicy = {
  name: POLICY_NAME,
  description:
    "Warns about API keys with `…:all`, write or delete scopes (and malformed scopes) beyond what the objects managed with them need and a configured allowed set.",
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
  validateStack: validateKeyScopes,
};
