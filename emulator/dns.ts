// Real DNS for `check-dns` when the emulator is started with a DNS server (--dns-server HOST:PORT):
// each record of a domain is resolved through that server, and it is `propagated` when the server
// answers the value the record asks for. What counts as a match and what makes the check a 503 are
// the emulator's choices, written down in docs/contract/endpoints/domains.md#emulator.
import { promises as dns } from "node:dns";
import type { DnsRecord } from "../provider/api";
import { HttpError } from "./http/errors";

/** How the emulator checks DNS: the service's cache (both modes) and, for real lookups, the server. */
export interface DnsSettings {
  /** "HOST:PORT" of the DNS server records are resolved through; absent = the control surface's flag. */
  server?: string;
  /** A check sooner than this after the last one answers the stored result (the service's 60 s). */
  cacheMs: number;
}

/** The service's cache (docs/contract/endpoints/domains.md#endpoints). */
export const SERVICE_DNS_CACHE_MS = 60_000;

/**
 * What a DNS server answered for a record's host and type: CNAME targets, TXT records (each a list
 * of its character-strings), or null for "no such name" (NXDOMAIN) and "no record of that type"
 * (NODATA).
 */
export type Found = string[] | string[][] | null;

/** The 503 the contract allows while managed DNS is down; nothing of the check is stored. */
export const DNS_UNAVAILABLE = "managed DNS unavailable";

/** Per query: a resolver that cannot reach the server gives up after about 2 × 1.5 s, not minutes. */
const QUERY_TIMEOUT_MS = 1500;
const QUERY_TRIES = 2;

/** Names compare without case and without the root's trailing dot. */
function canonicalName(name: string): string {
  return name.trim().toLowerCase().replace(/\.+$/, "");
}

/** Node hands TXT bytes over as latin1 strings; the record's value is compared as the UTF-8 text it was published as. */
function txtText(strings: string[]): string {
  return Buffer.from(strings.join(""), "latin1").toString("utf8");
}

/**
 * Whether what the server answered satisfies the record. CNAME: any target equal to the record's
 * content, ignoring case and a trailing dot. TXT: any TXT record at the name whose strings, joined
 * (a value longer than 255 bytes is published as several), equal the content (exactly: a DKIM key is
 * case-sensitive), ignoring whitespace around it. Nothing found, or another type: not propagated.
 */
export function isPropagated(record: Pick<DnsRecord, "type" | "content">, found: Found): boolean {
  if (found === null) return false;
  if (record.type === "CNAME") {
    const want = canonicalName(record.content);
    return found.some((target) => typeof target === "string" && canonicalName(target) === want);
  }
  if (record.type === "TXT") {
    const want = record.content.trim();
    return found.some((strings) => Array.isArray(strings) && txtText(strings).trim() === want);
  }
  return false;
}

/** The key a record's propagation is stored under: its type and host (hosts compare without case). */
export function propagationKey(record: Pick<DnsRecord, "type" | "host">): string {
  return `${record.type} ${canonicalName(record.host)}`;
}

/** The codes of an answer that says "not there" (rather than "could not ask"). */
const ABSENT = new Set<string>([dns.NOTFOUND, dns.NODATA]);

/**
 * Resolves every record through `server` at once (a fresh resolver: no answer is reused from an
 * earlier check) and returns the keys (propagationKey) of those it found. A failure to get an
 * answer — timeout, SERVFAIL, REFUSED, the server unreachable — is a 503: the check cannot say.
 */
export async function resolvePropagated(server: string, records: DnsRecord[]): Promise<string[]> {
  const resolver = new dns.Resolver({ timeout: QUERY_TIMEOUT_MS, tries: QUERY_TRIES });
  resolver.setServers([server]);
  const lookup = async (record: DnsRecord): Promise<Found> => {
    try {
      if (record.type === "CNAME") return await resolver.resolveCname(record.host);
      if (record.type === "TXT") return await resolver.resolveTxt(record.host);
      return null; // the service generates no other type; nothing to find for it
    } catch (e) {
      if (ABSENT.has((e as { code?: string }).code ?? "")) return null;
      throw new HttpError(503, DNS_UNAVAILABLE);
    }
  };
  try {
    const found = await Promise.all(records.map(lookup));
    return records.filter((record, i) => isPropagated(record, found[i]!)).map(propagationKey);
  } finally {
    // After a failure the other queries' answers no longer matter.
    resolver.cancel();
  }
}
