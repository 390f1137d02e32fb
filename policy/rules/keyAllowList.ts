// Keys without an allow list. The service's rule is that an empty `ipAllowList` (the default when
// the input is left out) imposes no restriction: such a key works from any address, the same reach
// as the `0.0.0.0/0` that ip-allow-list-no-allow-all refuses. Leaving the list out must not be the
// easy way around that rule, so, with the defaults:
// - mandatory for a key whose scopes can change the account (any scope that is not a send or a
//   read: writes, deletes, key and sub-account management, and what acts like them);
// - advisory for a key that can only send or read, and for a key the policy config explicitly
//   accepts without a list (`keysWithoutAllowList`, or `includeApiKeys: false` for account keys);
//   the message says which opt-out applied, so the reviewer of the config change sees it.
// Every key kind on both faces: account keys (ApiKey), sub-account keys (SubAccountApiKey), and so
// the Tenant's bootstrap and tenant keys, whether written in a program or a tenants file.
//
// The policy keeps its first name, sub-account-key-requires-allow-list, although it now covers
// account keys too: teams' policy config files name it (the usual rollout sets it to advisory).
import type { ResourceValidation, ResourceValidationPolicy } from "@pulumi/policy";
import { parseScope } from "../../provider/api/scopes";
import { analyzeAllowList } from "../lib/allowList";
import { booleanSetting, readConfig, stringListSetting } from "../lib/config";
import { readStringList } from "../lib/inputs";
import { reportAdvisory } from "../lib/report";
import { KEY_KINDS, kindOf, subject } from "../lib/resources";

const POLICY_NAME = "sub-account-key-requires-allow-list";
const DESCRIPTION =
  "API keys without an ipAllowList (an empty list is allow-all): mandatory when their scopes can change the account, advisory when they only send or read or the policy config accepts them.";

export const KEY_ALLOW_LIST_DEFAULTS = {
  // Account keys are the most powerful keys there are (a parent key can manage every sub account):
  // leaving them out by default left the widest hole open.
  includeApiKeys: true,
  keysWithoutAllowList: [] as readonly string[],
};

/**
 * Verbs that neither send as nor change the account: reads (`sub-accounts:usage` reads usage).
 * Every other verb counts as a change, including the ones that are not called write or delete
 * (cancel, billing, add, update, remove, wipe, suspend), and so does a malformed scope: what it
 * would grant is not known, and the provider rejects it at apply anyway.
 */
const SEND_OR_READ_VERBS: ReadonlySet<string> = new Set(["send", "read", "usage"]);

/** Scopes of a key that go beyond sending and reading; "unknown" while one element is. */
function changeScopesOf(props: object): { change: string[]; all: string[] } | "unknown" {
  const read = readStringList(props, "scopes");
  if (read.state === "unknown") return "unknown";
  // Absent: the provider requires scopes; a key with none can do nothing.
  const scopes = read.state === "known" ? [...new Set(read.value.strings.map((s) => s.value))] : [];
  const change = scopes.filter((scope) => !SEND_OR_READ_VERBS.has(parseScope(scope)?.verb ?? ""));
  // A known change scope is certain whatever the unknown ones are; "send or read only" is not.
  if (change.length === 0 && read.state === "known" && read.value.unknown.length > 0) return "unknown";
  return { change, all: scopes };
}

/** Quotes at most `max` scopes, saying how many more there are. */
function quoteScopes(scopes: readonly string[], max = 8): string {
  const shown = scopes.slice(0, max).map((s) => `'${s}'`);
  return scopes.length > max ? `${shown.join(", ")} and ${scopes.length - max} more` : shown.join(", ");
}

/**
 * The line to add, where the author writes it. The Tenant's keys are its children
 * (`…txmail:index:Tenant$<key type>::<tenant>-<role>` in the URN), written as the tenant's
 * `bootstrapKey` or as an entry of its `apiKeys`, in a program or a tenants file alike.
 */
function lineToAdd(urn: string, name: string, placeholder: string): string {
  const list = `ipAllowList: ["${placeholder}"]`;
  const parentTypes = (urn.split("::")[2] ?? "").split("$").slice(0, -1);
  if (parentTypes.at(-1) !== "txmail:index:Tenant") return `add ${list} to it`;
  if (name.endsWith("-bootstrap")) return `give the tenant bootstrapKey: { ${list} } (the same in a tenants file)`;
  return `add ${list} to its entry under the tenant's apiKeys (the same in a tenants file)`;
}

export const validateKeyAllowList: ResourceValidation = (args, reportViolation) => {
  const kind = kindOf(args.type, KEY_KINDS);
  if (!kind) return;
  const a = analyzeAllowList(args.props);
  // Unknown at preview: it may well be set, and the rule runs again at `pulumi up` on the known
  // value. A value that is not a list, or has entries, is the entries rules' business.
  if (a.state === "unknown" || (a.state === "known" && (a.list.notAList || hasEntries(a.list)))) return;
  const scopes = changeScopesOf(args.props);
  // Whether the key can change the account decides the level: checked at `pulumi up` when known.
  if (scopes === "unknown") return;

  const config = readConfig(args);
  const who = subject(kind, args);
  const what = a.state === "absent" ? "has no ipAllowList" : "has an empty ipAllowList";
  const anyAddress = `${who} ${what}, and the service reads a missing or empty list as no restriction: the key works from any address`;

  if (scopes.change.length === 0) {
    const held = scopes.all.length > 0 ? ` (${quoteScopes(scopes.all)})` : "";
    reportAdvisory(
      reportViolation,
      DESCRIPTION,
      `${anyAddress}. Its scopes only send or read${held}, so this is advisory; ${lineToAdd(args.urn, args.name, "<your senders' egress>/32")}.`,
      "medium",
    );
    return;
  }

  const canChange = `its scopes can change the account: ${quoteScopes(scopes.change)}`;
  const fix = lineToAdd(args.urn, args.name, "<your CI egress>/32");
  const optOut = appliedOptOut(kind, args, config);
  if (optOut) {
    reportAdvisory(
      reportViolation,
      DESCRIPTION,
      `${anyAddress}, and ${canChange}. Advisory, not mandatory, because ${optOut}; to enforce it, ${fix} and remove the opt-out.`,
      "high",
    );
    return;
  }
  reportViolation(
    `${anyAddress}, and ${canChange}. ${capitalise(fix)}; or, if the key must work from anywhere, list ` +
      `'${args.name}' in ${POLICY_NAME}.keysWithoutAllowList in the policy config.`,
  );
};

/** Which opt-out of the policy config accepts this key without an allow list, if one does. */
function appliedOptOut(
  kind: string,
  args: { name: string; urn: string },
  config: ReturnType<typeof readConfig>,
): string | undefined {
  const accepted = stringListSetting(config, "keysWithoutAllowList", KEY_ALLOW_LIST_DEFAULTS.keysWithoutAllowList);
  const listed = accepted.find((k) => k === args.name || k === args.urn);
  if (listed !== undefined) return `the policy config lists '${listed}' in ${POLICY_NAME}.keysWithoutAllowList`;
  const includeApiKeys = booleanSetting(config, "includeApiKeys", KEY_ALLOW_LIST_DEFAULTS.includeApiKeys);
  if (kind === "ApiKey" && !includeApiKeys) return `the policy config sets ${POLICY_NAME}.includeApiKeys to false`;
  return undefined;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function hasEntries(list: { strings: unknown[]; others: unknown[]; unknown: unknown[] }): boolean {
  return list.strings.length + list.others.length + list.unknown.length > 0;
}

export const keyAllowList: ResourceValidationPolicy = {
  name: POLICY_NAME,
  description: DESCRIPTION,
  enforcementLevel: "mandatory",
  severity: "critical",
  remediationSteps:
    'Add the addresses the key is used from, e.g. ipAllowList: ["<your CI egress>/32"], or accept the key in keysWithoutAllowList.',
  configSchema: {
    properties: {
      includeApiKeys: {
        type: "boolean",
        default: KEY_ALLOW_LIST_DEFAULTS.includeApiKeys,
        description: "Enforce the account's own API keys (ApiKey) too; false makes their findings advisory, saying so.",
      },
      keysWithoutAllowList: {
        type: "array",
        items: { type: "string" },
        default: [...KEY_ALLOW_LIST_DEFAULTS.keysWithoutAllowList],
        description:
          "Keys accepted without an allow list, by Pulumi name (acme-bootstrap) or URN: their finding is advisory and names this setting.",
      },
    },
  },
  validateResource: validateKeyAllowList,
};
