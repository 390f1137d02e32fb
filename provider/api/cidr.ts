// IP allow-list canonicalisation: one implementation for the provider's check, the emulator and
// the policy pack, on ipaddr.js (no hand-written address parsing; the regular expressions below
// only refuse spellings that parsers disagree about).
//
// Rules (the service's — docs/contract/allow-lists.md — plus choices where it is silent):
// - entries are CIDR blocks or bare addresses; a bare address becomes /32 or /128;
// - host bits are cleared (10.1.2.3/8 → 10.0.0.0/8), not rejected: the service says entries are
//   "canonicalized", and clearing is what common canonicalisers (Go's netip Prefix.Masked, Python's
//   ip_network(strict=False)) do. The cleared block is what the key is restricted to;
// - IPv6 is printed in RFC 5952 form (lower case, longest zero run compressed, never a single group);
// - IPv4-mapped IPv6 (::ffff:a.b.c.d/96+n) becomes the IPv4 block it denotes, so it cannot hide an
//   allow-all (::ffff:0:0/96 is 0.0.0.0/0) or a duplicate;
// - IPv4 must be four decimal parts without leading zeros: 010.0.0.1 is octal (8.0.0.1) to some
//   parsers and decimal to others, 10.1 is 10.0.0.1, 0x0a is hex; these are rejected, not guessed.
//   The same holds for the dotted tail of an IPv6 address (::ffff:010.0.0.1);
// - the deprecated IPv4-compatible form ::a.b.c.d is rejected: ipaddr.js reads it as IPv4-mapped,
//   RFC 4291 as the IPv6 address ::a.b.c.d, so either reading would surprise someone;
// - any entry with prefix length 0 denotes the whole family however its address is spelled (the
//   address bits are all host bits), so 0/0, 10.1/0 and ::1.2.3.4/0 are allow-alls too;
// - whitespace, zone ids (fe80::1%eth0), netmask notation (10.0.0.0/255.0.0.0) and empty entries
//   are rejected; where the intent is evident the message says what to write;
// - allow-all entries (prefix length 0 after canonicalisation) are rejected;
// - at most 100 entries after de-duplication.
// Entries that together cover a family (0.0.0.0/1 + 128.0.0.0/1) are accepted by the service, so
// canonicalizeAllowList accepts them too; coversFamily lets stricter callers (the policy) refuse them.
import * as ipaddr from "ipaddr.js";

export const MAX_ALLOW_LIST_ENTRIES = 100;

export type Family = 4 | 6;

export type EntryResult =
  | { ok: true; canonical: string; family: Family; prefix: number }
  | {
      ok: false;
      /** What is wrong, without the entry itself: "is empty", "contains whitespace …". */
      message: string;
      /** The canonical block the entry evidently means (whitespace trimmed, netmask converted). */
      meant?: string;
    };

export interface AllowListProblem {
  kind: "invalid" | "allow-all" | "too-many";
  /** Index of the offending entry in the input (absent for list-wide problems). */
  index?: number;
  entry?: string;
  /** For allow-all problems: the canonical whole-family block the entry denotes. */
  canonical?: string;
  /** What is wrong, without the entry: "allows every IPv6 address (same as ::/0)". */
  reason: string;
  /** A whole sentence naming the entry, the rule and the fix, for field errors. */
  message: string;
}

const DECIMAL_OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const FOUR_PART_DECIMAL = new RegExp(`^${DECIMAL_OCTET}(\\.${DECIMAL_OCTET}){3}$`);
const PREFIX_LENGTH = /^(0|[1-9]\d{0,2})$/;
const IPV4_COMPATIBLE = /^::[^:]*\.[^:]*$/;

/** Canonical form of one entry, or a message saying what is wrong with it. */
export function canonicalizeEntry(entry: string): EntryResult {
  if (typeof entry !== "string") return { ok: false, message: "is not a string" };
  if (entry.length === 0) return { ok: false, message: "is empty" };
  if (/\s/.test(entry)) return whitespaceProblem(entry);
  if (entry.includes("%")) return { ok: false, message: "has a zone id (%…), which an allow list cannot use" };

  const slash = entry.indexOf("/");
  const addrText = slash === -1 ? entry : entry.slice(0, slash);
  const lenText = slash === -1 ? undefined : entry.slice(slash + 1);

  if (lenText !== undefined && lenText.includes(".")) return netmaskProblem(addrText, lenText);
  if (lenText === "0") return wholeFamily(addrText);

  const parsed = parseAddress(addrText);
  if ("message" in parsed) return { ok: false, message: parsed.message };
  let addr = parsed.addr;

  const max = addr.kind() === "ipv4" ? 32 : 128;
  let prefix = max;
  if (lenText !== undefined) {
    if (!PREFIX_LENGTH.test(lenText) || Number(lenText) > max) {
      return { ok: false, message: `has an invalid prefix length '/${lenText}' (a number 0–${max}, no leading zeros)` };
    }
    prefix = Number(lenText);
  }

  // IPv4-mapped IPv6 denotes IPv4 space: ::ffff:10.0.0.0/104 is 10.0.0.0/8.
  if (addr instanceof ipaddr.IPv6 && addr.isIPv4MappedAddress() && prefix >= 96) {
    addr = addr.toIPv4Address();
    prefix -= 96;
  }
  return network(addr, prefix);
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

function parseAddress(text: string): { addr: Address } | { message: string } {
  if (text.includes(":")) {
    if (!ipaddr.IPv6.isValid(text)) return { message: "is not an IP address or CIDR block" };
    const dottedTail = text.includes(".") ? text.slice(text.lastIndexOf(":") + 1) : undefined;
    if (dottedTail !== undefined && !FOUR_PART_DECIMAL.test(dottedTail)) {
      return { message: `has an ambiguous IPv4 part '${dottedTail}' (use four decimal parts without leading zeros)` };
    }
    if (IPV4_COMPATIBLE.test(text)) {
      return {
        message: `uses the deprecated IPv4-compatible form; write the IPv4 address ${dottedTail} (or ::ffff:${dottedTail})`,
      };
    }
    return { addr: ipaddr.IPv6.parse(text) };
  }
  if (FOUR_PART_DECIMAL.test(text)) return { addr: ipaddr.IPv4.parse(text) };
  if (ipaddr.IPv4.isValid(text)) {
    return {
      message: "is an ambiguous IPv4 spelling (use four decimal parts without leading zeros, e.g. 10.0.0.1)",
    };
  }
  return { message: "is not an IP address or CIDR block" };
}

/** Prefix length 0: every address of the family, whatever the address part says. */
function wholeFamily(addrText: string): EntryResult {
  if (addrText.includes(":") ? ipaddr.IPv6.isValid(addrText) : ipaddr.IPv4.isValid(addrText)) {
    return addrText.includes(":")
      ? { ok: true, canonical: "::/0", family: 6, prefix: 0 }
      : { ok: true, canonical: "0.0.0.0/0", family: 4, prefix: 0 };
  }
  return { ok: false, message: "is not an IP address or CIDR block" };
}

function whitespaceProblem(entry: string): EntryResult {
  const trimmed = entry.trim();
  const inner = trimmed === "" || /\s/.test(trimmed) ? undefined : canonicalizeEntry(trimmed);
  if (inner?.ok) {
    return { ok: false, message: `contains whitespace (write '${inner.canonical}')`, meant: inner.canonical };
  }
  return { ok: false, message: "contains whitespace" };
}

function netmaskProblem(addrText: string, mask: string): EntryResult {
  const prefix = FOUR_PART_DECIMAL.test(mask) ? ipaddr.IPv4.parse(mask).prefixLengthFromSubnetMask() : null;
  if (prefix === null || addrText.includes(":")) {
    return { ok: false, message: `has an invalid prefix length '/${mask}' (a number 0–32 or 0–128)` };
  }
  const inner = canonicalizeEntry(`${addrText}/${prefix}`);
  if (!inner.ok) return inner;
  return {
    ok: false,
    message: `uses netmask notation '/${mask}'; write the prefix length instead ('${inner.canonical}')`,
    meant: inner.canonical,
  };
}

function network(addr: Address, prefix: number): EntryResult {
  const bytes = addr.toByteArray();
  for (let bit = prefix; bit < bytes.length * 8; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  const net = ipaddr.fromByteArray(bytes);
  const family: Family = net.kind() === "ipv4" ? 4 : 6;
  const text = net instanceof ipaddr.IPv6 ? net.toRFC5952String() : net.toString();
  return { ok: true, canonical: `${text}/${prefix}`, family, prefix };
}

/** True when the entry (in any accepted spelling) allows every address of its family. */
export function isAllowAll(entry: string): boolean {
  const r = canonicalizeEntry(entry);
  return r.ok && r.prefix === 0;
}

/** Family, prefix length and address count of a canonical entry (for "very broad prefix" rules). */
export function prefixBreadth(canonical: string): { family: Family; prefix: number; addresses: bigint } {
  const [addr, len] = canonical.split("/");
  const family: Family = addr.includes(":") ? 6 : 4;
  const prefix = Number(len);
  return { family, prefix, addresses: 1n << BigInt((family === 4 ? 32 : 128) - prefix) };
}

/**
 * Canonicalises and de-duplicates a list (first occurrence kept), reporting every invalid and
 * every allow-all entry with its index, and more than 100 distinct entries.
 */
export function canonicalizeAllowList(entries: readonly string[]): {
  canonical: string[];
  problems: AllowListProblem[];
} {
  const canonical: string[] = [];
  const seen = new Set<string>();
  const problems: AllowListProblem[] = [];
  entries.forEach((entry, index) => {
    const r = canonicalizeEntry(entry);
    const block = r.ok ? r.canonical : r.meant;
    if (block !== undefined && isAllowAll(block)) {
      problems.push(allowAllProblem(entry, index, block));
    } else if (!r.ok) {
      problems.push({ kind: "invalid", index, entry, reason: r.message, message: `'${entry}' ${r.message}` });
    } else if (!seen.has(r.canonical)) {
      seen.add(r.canonical);
      canonical.push(r.canonical);
    }
  });
  if (canonical.length > MAX_ALLOW_LIST_ENTRIES) {
    const reason = `has ${canonical.length} entries after canonicalisation and de-duplication; at most ${MAX_ALLOW_LIST_ENTRIES} are allowed`;
    problems.push({ kind: "too-many", reason, message: reason });
  }
  return { canonical, problems };
}

// A misspelt allow-all (" 0.0.0.0/0", "0.0.0.0/0.0.0.0") is reported as what it means: fixing
// the spelling alone would only earn the next rejection.
function allowAllProblem(entry: string, index: number, block: string): AllowListProblem {
  const family = block.includes(":") ? "IPv6" : "IPv4";
  const same = entry === block ? "" : ` (same as ${block})`;
  const reason = `allows every ${family} address${same}`;
  return {
    kind: "allow-all",
    index,
    entry,
    canonical: block,
    reason,
    message: `'${entry}' ${reason}; the service rejects allow-all entries — list the CIDR blocks of your senders instead`,
  };
}

/** True when the union of the canonical blocks of `family` is the whole address space. */
export function coversFamily(canonical: readonly string[], family: Family): boolean {
  const bits = family === 4 ? 32 : 128;
  const ranges = canonical
    .map((block) => ({ ...prefixBreadth(block), start: firstAddress(block) }))
    .filter((r) => r.family === family)
    .map((r) => [r.start, r.start + r.addresses - 1n] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let next = 0n;
  for (const [start, end] of ranges) {
    if (start > next) return false;
    if (end + 1n > next) next = end + 1n;
  }
  return next === 1n << BigInt(bits);
}

function firstAddress(canonical: string): bigint {
  const bytes = ipaddr.parse(canonical.split("/")[0]).toByteArray();
  return bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
}
