// Advisory: very broad blocks. Defaults: IPv4 shorter than /16, IPv6 shorter than /32.
// - IPv4 /16 (65,536 addresses) is the largest block one organisation usually holds for itself
//   (the largest cloud VPC, a large enterprise allocation); shorter blocks are ISP- or
//   cloud-region-sized and shared with strangers, who then pass the allow list. Senders' egress
//   is normally a few NAT addresses (/32 to /28).
// - IPv6 /32 is the usual minimum allocation to an ISP (a site gets a /48); a shorter block spans
//   several ISPs.
// Both thresholds are policy config; 0-length prefixes are the mandatory allow-all rule's.
import type { ResourceValidation, ResourceValidationPolicy } from "@pulumi/policy";
import { prefixBreadth } from "../../provider/api/cidr";
import { analyzeAllowList } from "../lib/allowList";
import { integerSetting, readConfig } from "../lib/config";
import { KEY_KINDS, kindOf, subject } from "../lib/resources";

export const BROAD_PREFIX_DEFAULTS = { minIPv4PrefixLength: 16, minIPv6PrefixLength: 32 } as const;
const POLICY_NAME = "ip-allow-list-broad-prefix";

export const validateBroadPrefix: ResourceValidation = (args, reportViolation) => {
  const kind = kindOf(args.type, KEY_KINDS);
  if (!kind) return;
  const config = readConfig(args);
  const min = {
    4: integerSetting(config, "minIPv4PrefixLength", BROAD_PREFIX_DEFAULTS.minIPv4PrefixLength, 1, 32),
    6: integerSetting(config, "minIPv6PrefixLength", BROAD_PREFIX_DEFAULTS.minIPv6PrefixLength, 1, 128),
  };
  const a = analyzeAllowList(args.props);
  if (a.state !== "known") return;
  // One finding per key: every broad block, the broadest first.
  const broad = a.entries
    .filter((e) => e.prefix < min[e.family])
    .sort((x, y) => x.prefix - y.prefix || x.index - y.index);
  if (broad.length === 0) return;
  const parts = broad.map((e) => {
    const same = e.entry === e.canonical ? "" : ` (${e.canonical})`;
    const { addresses } = prefixBreadth(e.canonical);
    const size = e.family === 4 ? ` (${addresses.toLocaleString("en-US")} addresses)` : "";
    return `ipAllowList[${e.index}]: '${e.entry}'${same} is a /${e.prefix} block${size}, broader than the /${min[e.family]} this pack accepts for IPv${e.family}`;
  });
  const families = [...new Set(broad.map((e) => e.family))];
  const settings = families.map((f) => `${POLICY_NAME}.minIPv${f}PrefixLength`).join(" or ");
  reportViolation(
    `${subject(kind, args)}: ${parts.join("; ")}; list your senders' own addresses or narrower blocks ` +
      `(or set ${settings} in the policy config).`,
  );
};

export const broadPrefix: ResourceValidationPolicy = {
  name: POLICY_NAME,
  description: "Warns about ipAllowList blocks broader than a configurable prefix length (IPv4 /16, IPv6 /32).",
  enforcementLevel: "advisory",
  severity: "medium",
  configSchema: {
    properties: {
      minIPv4PrefixLength: {
        type: "integer",
        minimum: 1,
        maximum: 32,
        default: BROAD_PREFIX_DEFAULTS.minIPv4PrefixLength,
        description: "IPv4 blocks with a shorter prefix than this are reported.",
      },
      minIPv6PrefixLength: {
        type: "integer",
        minimum: 1,
        maximum: 128,
        default: BROAD_PREFIX_DEFAULTS.minIPv6PrefixLength,
        description: "IPv6 blocks with a shorter prefix than this are reported.",
      },
    },
  },
  validateResource: validateBroadPrefix,
};
