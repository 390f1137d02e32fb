// One reading of a key's `ipAllowList` shared by the allow-list rules, on the provider's own
// canonicalisation (provider/api/cidr.ts), so policy, provider check and emulator agree on what
// an entry means. The policy is stricter than the service in one respect: entries that together
// cover a whole family (0.0.0.0/1 + 128.0.0.0/1) are an allow-all here (coversFamily), although
// the service, and so canonicalizeAllowList, accept them.
//
// Unknown entries (preview) are left out and everything reported is certain whatever they turn out
// to be: an allow-all or invalid known entry stays one, a family covered by the known entries stays
// covered, and more than 100 distinct known entries stay too many. A wholly unknown list yields
// nothing; the rules run again at `pulumi up` on known values, and the provider's check rejects
// allow-all, invalid and oversized lists at apply (not combinations, which the service accepts).
import {
  type AllowListProblem,
  canonicalizeAllowList,
  canonicalizeEntry,
  coversFamily,
  type Family,
  prefixBreadth,
} from "../../provider/api/cidr";
import type { ResourceValidation } from "@pulumi/policy";
import { describeValue, readStringList, type StringList } from "./inputs";
import { KEY_KINDS, kindOf, subject } from "./resources";

export const ALLOW_LIST_INPUT = "ipAllowList";

export interface Finding {
  /** Index in the program's list; absent for findings about the whole list. */
  index?: number;
  entry?: string;
  message: string;
}

export interface CanonicalEntry {
  index: number;
  entry: string;
  canonical: string;
  family: Family;
  prefix: number;
}

export type AllowListAnalysis =
  | { state: "absent" | "unknown" }
  | {
      state: "known";
      list: StringList;
      /** Valid, non-allow-all known entries, first occurrence of each canonical block. */
      entries: CanonicalEntry[];
      allowAll: Finding[];
      invalid: Finding[];
      tooMany: Finding[];
    };

export function analyzeAllowList(props: object): AllowListAnalysis {
  const read = readStringList(props, ALLOW_LIST_INPUT);
  if (read.state !== "known") return { state: read.state };
  const list = read.value;

  const { canonical, problems } = canonicalizeAllowList(list.strings.map((s) => s.value));
  // Problems index the known strings; report the program's own index.
  const at = (p: AllowListProblem): Finding => ({
    index: p.index === undefined ? undefined : list.strings[p.index].index,
    entry: p.entry,
    message: p.message,
  });

  const allowAll: Finding[] = [];
  const invalid: Finding[] = [];
  const tooMany: Finding[] = [];
  for (const p of problems) {
    if (p.kind === "allow-all") allowAll.push(at(p));
    else if (p.kind === "too-many") tooMany.push(at(p));
    else if (p.entry !== undefined && meansAllowAll(p.entry)) {
      // Rejected as malformed, but what its author meant is "everyone": say so.
      allowAll.push({
        ...at(p),
        message: `'${p.entry}' means every address (a wildcard or a zero prefix length) in a spelling the service does not accept either; list the CIDR blocks of your senders instead`,
      });
    } else invalid.push(at(p));
  }
  for (const family of [4, 6] as const) {
    if (!coversFamily(canonical, family)) continue;
    const blocks = canonical.filter((c) => prefixBreadth(c).family === family);
    const shown =
      blocks.length > 6 ? `${blocks.slice(0, 6).join(", ")} and ${blocks.length - 6} more` : blocks.join(", ");
    allowAll.push({
      message: `together the entries cover every IPv${family} address (${shown}), which is an allow-all in effect; list the CIDR blocks of your senders instead`,
    });
  }
  for (const o of list.others) {
    invalid.push({
      index: o.index,
      message: `${describeValue(o.value)} is not a string`,
    });
  }
  if (list.notAList) {
    invalid.unshift({ message: 'is not a list; write ipAllowList: ["203.0.113.0/24", …]' });
  }

  const entries: CanonicalEntry[] = [];
  const seen = new Set<string>();
  for (const { index, value } of list.strings) {
    const r = canonicalizeEntry(value);
    if (!r.ok || r.prefix === 0 || seen.has(r.canonical)) continue;
    seen.add(r.canonical);
    entries.push({ index, entry: value, canonical: r.canonical, family: r.family, prefix: r.prefix });
  }
  return { state: "known", list, entries, allowAll, invalid, tooMany };
}

// canonicalizeEntry already reads /0 on any address spelling (0/0, 10.1/0), a padded ' 0.0.0.0/0'
// and the netmask 0.0.0.0 as allow-alls. Left over are spellings it rejects as malformed whose
// intent is still "everyone": zero-padded or spaced prefix lengths (/00, / 0) and the wildcards
// other products accept. Reporting them as allow-alls says what the fix really is.
const ZERO_PREFIX = /\/\s*0+(\.0+){0,3}\s*$/;
const WILDCARD = /^\s*(\*|\*\/\*|any|all|anywhere|everyone|internet)\s*$/i;

function meansAllowAll(entry: string): boolean {
  return ZERO_PREFIX.test(entry) || WILDCARD.test(entry);
}

/** `ipAllowList[3]:`, or `ipAllowList:` for list-wide findings. */
export function where(f: Pick<Finding, "index">): string {
  return f.index === undefined ? `${ALLOW_LIST_INPUT}:` : `${ALLOW_LIST_INPUT}[${f.index}]:`;
}

/**
 * The check of an allow-list rule: on a key (KEY_KINDS) whose list is known, one violation per key
 * listing every finding of the kind the rule is about (`findings`), then how to fix them (`fix`).
 */
export function keyAllowListCheck(findings: "allowAll" | "invalid" | "tooMany", fix?: string): ResourceValidation {
  return (args, reportViolation) => {
    const kind = kindOf(args.type, KEY_KINDS);
    if (!kind) return;
    const a = analyzeAllowList(args.props);
    if (a.state !== "known") return;
    const found = a[findings];
    if (found.length > 0)
      reportViolation(
        `${subject(kind, args)}: ${found.map((f) => `${where(f)} ${f.message}`).join("; ")}${fix ? `; ${fix}` : ""}.`,
      );
  };
}
