// IP allow-list canonicalisation: one implementation for the provider's check, the emulator and
// the policy pack, on ipaddr.js (no hand-written address parsing).
//
// Rules (the service's, plus choices where it is silent):
// - entries are CIDR blocks or bare addresses; a bare address becomes /32 or /128;
// - host bits are cleared (10.1.2.3/8 → 10.0.0.0/8), as the service canonicalises;
// - IPv6 is printed in RFC 5952 form (lower case, longest zero run compressed);
// - IPv4-mapped IPv6 (::ffff:a.b.c.d/96+n) becomes the IPv4 block it denotes, so it cannot hide
//   an allow-all (::ffff:0:0/96 is 0.0.0.0/0);
// - IPv4 must be four decimal parts without leading zeros: 010.0.0.1 is octal to some parsers
//   and 10.1 is 10.0.0.1 to others, so ambiguous spellings are rejected, not guessed;
// - whitespace, zone ids (fe80::1%eth0) and empty entries are rejected;
// - an entry with prefix length 0 allows every address: rejected (0.0.0.0/0, ::/0, 0/0, …);
// - so is a list whose entries together cover a whole address family (0.0.0.0/1 + 128.0.0.0/1);
// - at most 100 entries after de-duplication.
import * as ipaddr from "ipaddr.js";

export const MAX_ALLOW_LIST_ENTRIES = 100;

export type Family = 4 | 6;

export type EntryResult =
  { ok: true; canonical: string; family: Family; prefix: number } | { ok: false; message: string };

export interface AllowListProblem {
  kind: "invalid" | "allow-all" | "too-many";
  /** Index of the offending entry in the input (absent for list-wide problems). */
  index?: number;
  entry?: string;
  message: string;
}

const FOUR_PART_DECIMAL = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Canonical form of one entry, or a message saying what is wrong with it. */
export function canonicalizeEntry(entry: string): EntryResult {
  if (typeof entry !== "string" || entry.length === 0) return { ok: false, message: "is empty" };
  if (/\s/.test(entry)) return { ok: false, message: "contains whitespace" };
  if (entry.includes("%")) return { ok: false, message: "has a zone id, which an allow list cannot use" };

  const slash = entry.indexOf("/");
  const addrText = slash === -1 ? entry : entry.slice(0, slash);
  const lenText = slash === -1 ? undefined : entry.slice(slash + 1);

  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv6.isValid(addrText) && addrText.includes(":")) {
    addr = ipaddr.IPv6.parse(addrText);
  } else if (FOUR_PART_DECIMAL.test(addrText)) {
    addr = ipaddr.IPv4.parse(addrText);
  } else if (ipaddr.IPv4.isValid(addrText)) {
    return {
      ok: false,
      message: "is an ambiguous IPv4 spelling (use four decimal parts without leading zeros, e.g. 10.0.0.1)",
    };
  } else {
    return { ok: false, message: "is not an IP address or CIDR block" };
  }

  const max = addr.kind() === "ipv4" ? 32 : 128;
  let prefix = max;
  if (lenText !== undefined) {
    if (!/^(0|[1-9]\d{0,2})$/.test(lenText) || Number(lenText) > max) {
      return { ok: false, message: `has an invalid prefix length '/${lenText}' (0–${max})` };
    }
    prefix = Number(lenText);
  }

  // IPv4-mapped IPv6 denotes IPv4 space.
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
  }
  return network(addr, prefix);
}

function network(addr: ipaddr.IPv4 | ipaddr.IPv6, prefix: number): EntryResult {
  const bytes = addr.toByteArray();
  for (let bit = prefix; bit < bytes.length * 8; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  const net = ipaddr.fromByteArray(bytes);
  const family: Family = net.kind() === "ipv4" ? 4 : 6;
  const text = family === 4 ? net.toString() : (net as ipaddr.IPv6).toRFC5952String();
  return { ok: true, canonical: `${text}/${prefix}`, family, prefix };
}

/** True for a canonical entry that allows every address of its family. */
export function isAllowAll(canonical: string): boolean {
  return canonical === "0.0.0.0/0" || canonical === "::/0";
}

/** Family and prefix length of a canonical entry (for "very broad prefix" rules). */
export function prefixBreadth(canonical: string): { family: Family; prefix: number } {
  const [addr, len] = canonical.split("/");
  return { family: addr.includes(":") ? 6 : 4, prefix: Number(len) };
}

/**
 * Canonicalises and de-duplicates a list (first occurrence kept), reporting every invalid or
 * allow-all entry with its index, a combination covering a whole family, and > 100 entries.
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
    if (!r.ok) {
      problems.push({ kind: "invalid", index, entry, message: `'${entry}' ${r.message}` });
      return;
    }
    if (isAllowAll(r.canonical)) {
      const family = r.family === 4 ? "IPv4" : "IPv6";
      const same = entry === r.canonical ? "" : ` (same as ${r.canonical})`;
      problems.push({
        kind: "allow-all",
        index,
        entry,
        message: `'${entry}' allows every ${family} address${same}; the service rejects allow-all entries — list your senders' CIDR blocks instead`,
      });
      return;
    }
    if (!seen.has(r.canonical)) {
      seen.add(r.canonical);
      canonical.push(r.canonical);
    }
  });
  for (const family of [4, 6] as const) {
    if (coversFamily(canonical, family)) {
      problems.push({
        kind: "allow-all",
        message: `together the entries cover every IPv${family} address, which is an allow-all; list your senders' CIDR blocks instead`,
      });
    }
  }
  if (canonical.length > MAX_ALLOW_LIST_ENTRIES) {
    problems.push({
      kind: "too-many",
      message: `has ${canonical.length} entries after canonicalisation and de-duplication; at most ${MAX_ALLOW_LIST_ENTRIES} are allowed`,
    });
  }
  return { canonical, problems };
}

/** True when the union of the canonical blocks of `family` is the whole address space. */
export function coversFamily(canonical: readonly string[], family: Family): boolean {
  const bits = family === 4 ? 32 : 128;
  const ranges = canonical
    .map(prefixBreadthWithStart)
    .filter((r) => r.family === family)
    .map((r) => [r.start, r.start + (1n << BigInt(bits - r.prefix)) - 1n] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let next = 0n;
  for (const [start, end] of ranges) {
    if (start > next) return false;
    if (end + 1n > next) next = end + 1n;
  }
  return next === 1n << BigInt(bits);
}

function prefixBreadthWithStart(canonical: string): { family: Family; prefix: number; start: bigint } {
  const { family, prefix } = prefixBreadth(canonical);
  const bytes = ipaddr.parse(canonical.split("/")[0]).toByteArray();
  const start = bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
  return { family, prefix, start };
}
