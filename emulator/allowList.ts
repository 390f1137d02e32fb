// IP allow lists at request time (docs/contract/allow-lists.md, allow-list rules 5–7): a non-empty list admits only
// clients inside one of its blocks. The lists themselves are canonicalised by provider/api/cidr.ts.
import * as ipaddr from "ipaddr.js";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];
const cache = new Map<string, { list: readonly string[]; ranges: Range[] }>();

/** The client address in canonical text (IPv4-mapped IPv6 becomes IPv4). */
export function normalizeIp(raw: string): string {
  try {
    let a = ipaddr.parse(raw.trim());
    if (a instanceof ipaddr.IPv6 && a.isIPv4MappedAddress()) a = a.toIPv4Address();
    return a instanceof ipaddr.IPv6 ? a.toRFC5952String() : a.toString();
  } catch {
    return raw;
  }
}

export function ipAllowed(keyId: string, list: readonly string[], ip: string): boolean {
  if (list.length === 0) return true;
  let c = cache.get(keyId);
  if (!c || c.list !== list) {
    if (cache.size > 10_000) cache.clear();
    c = { list, ranges: list.map((b) => ipaddr.parseCIDR(b) as Range) };
    cache.set(keyId, c);
  }
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip);
  } catch {
    return false;
  }
  return c.ranges.some(([net, len]) => net.kind() === addr.kind() && addr.match([net, len] as never));
}

/** Same check without the cache (for the self-lockout guard on a list not stored yet). */
export function listAdmits(list: readonly string[], ip: string): boolean {
  if (list.length === 0) return true;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip);
  } catch {
    return false;
  }
  return list.some((b) => {
    const [net, len] = ipaddr.parseCIDR(b);
    return net.kind() === addr.kind() && addr.match([net, len] as never);
  });
}
