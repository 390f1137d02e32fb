// check-dns through a real DNS server: the emulator started with --dns-server resolves each record
// of a domain through PowerDNS on loopback (support/dnsServer.ts), where the test publishes them
// through PowerDNS's API as a user's DNS provider would. The service's part: "check-dns re-checks DNS
// but answers from a 60-second cache when called again sooner; it may answer 503 when managed DNS is
// down" (docs/contract/endpoints/domains.md#endpoints); how the emulator resolves and matches is its
// own choice (docs/contract/endpoints/domains.md#emulator).
import { generateKeyPairSync } from "node:crypto";
import * as dns from "node:dns";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DnsRecord, Domain } from "../../../provider/api";
import { type DnsServer, startDnsServer } from "../../../support/dnsServer";
import { type Emu, expectError, start, uniq } from "./helpers";

const ZONE = "dns-check.example";
const CACHE_SECONDS = 30;

let server: DnsServer;
let emu: Emu;
beforeAll(async () => {
  server = await startDnsServer();
  await server.createZone(ZONE);
  emu = await start({ dnsServer: server.address, dnsCacheSeconds: CACHE_SECONDS });
}, 60_000);
afterAll(async () => {
  await emu?.close();
  await server?.close();
});

async function createDomain(e: Emu, body: Record<string, unknown> = {}): Promise<Domain> {
  const r = await e.req<Domain>("POST", e.acct("/domains"), { body: { domain: `${uniq("d")}.${ZONE}`, ...body } });
  if (r.status !== 201) throw new Error(`create domain: ${r.status} ${r.text}`);
  return r.body;
}

const checkDns = (e: Emu, d: Domain) => e.req<Domain>("POST", e.acct(`/domains/${d.domain}/check-dns`));
const getDomain = (e: Emu, d: Domain) => e.req<Domain>("GET", e.acct(`/domains/${d.domain}`));

/** Publishes records as the service asks for them (or with `content` changed), through the DNS provider's API. */
async function publish(records: DnsRecord[], content: (r: DnsRecord) => string = (r) => r.content): Promise<void> {
  for (const r of records) await server.setRecord(r.host, r.type as "CNAME" | "TXT", [content(r)]);
}

const byLabel = (d: Domain, label: string) => d.dns_records.find((r) => r.label === label)!;
const propagation = (d: Domain) => Object.fromEntries(d.dns_records.map((r) => [r.label, r.propagated]));

describe("check-dns through a DNS server", () => {
  test("every record published: each propagated, dns_valid; CNAME targets in upper case with a trailing dot match", async () => {
    const d = await createDomain(emu);
    expect(d.dns_records.map((r) => [r.label, r.type, r.required])).toEqual([
      ["DKIM", "CNAME", true],
      ["Return-Path", "CNAME", true],
      ["DMARC", "TXT", false],
      ["Tracking", "CNAME", false],
    ]);
    await publish(d.dns_records, (r) => (r.type === "CNAME" ? `${r.content.toUpperCase()}.` : r.content));
    const r = await checkDns(emu, d);
    expect(r.status).toBe(200);
    expect(propagation(r.body)).toEqual({ DKIM: true, "Return-Path": true, DMARC: true, Tracking: true });
    expect(r.body.dns_valid).toBe(true);
    expect(r.body.last_dns_check_at).toEqual(expect.any(String));
    // Stored: a read answers the same.
    expect((await getDomain(emu, d)).body).toEqual(r.body);
  });

  test("a customer DKIM key's TXT record, longer than 255 bytes, is found split into several strings", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const d = await createDomain(emu, { dkim_private_key: privateKey.export({ type: "pkcs8", format: "pem" }) });
    const dkim = byLabel(d, "DKIM");
    expect([dkim.type, dkim.content.length > 255]).toEqual(["TXT", true]);
    await publish(d.dns_records);
    // The server holds it as several strings, so the match really joins them.
    const resolver = new dns.promises.Resolver({ timeout: 2000, tries: 2 });
    resolver.setServers([server.address]);
    expect((await resolver.resolveTxt(dkim.host))[0]!.length).toBeGreaterThan(1);
    const r = await checkDns(emu, d);
    expect([r.status, byLabel(r.body, "DKIM").propagated, r.body.dns_valid]).toEqual([200, true, true]);
  });

  test("a wrong value and a missing record are not propagated, the others are; dns_valid false", async () => {
    const d = await createDomain(emu);
    const dkim = byLabel(d, "DKIM");
    await publish(d.dns_records.filter((r) => r.label !== "Return-Path"));
    await server.setRecord(dkim.host, "CNAME", [`elsewhere.${dkim.content}`]);
    const r = await checkDns(emu, d);
    expect(r.status).toBe(200);
    expect(propagation(r.body)).toEqual({ DKIM: false, "Return-Path": false, DMARC: true, Tracking: true });
    expect(r.body.dns_valid).toBe(false);
  });

  test("optional records not published: dns_valid is still true", async () => {
    const d = await createDomain(emu, { subscription_subdomain: "subs" });
    await publish(d.dns_records.filter((r) => r.required));
    const r = await checkDns(emu, d);
    expect(propagation(r.body)).toEqual({
      DKIM: true,
      "Return-Path": true,
      DMARC: false,
      Tracking: false,
      Subscription: false,
    });
    expect(r.body.dns_valid).toBe(true);
  });

  test("within the cache the stored result is answered and DNS is not asked; after it, a removed record shows", async () => {
    const d = await createDomain(emu);
    await publish(d.dns_records);
    const first = await checkDns(emu, d);
    expect(first.body.dns_valid).toBe(true);
    // Removed from DNS: a lookup would see it gone, so an unchanged answer means none was made.
    await server.deleteRecord(byLabel(d, "Return-Path").host, "CNAME");
    const cached = await checkDns(emu, d);
    expect(cached.body).toEqual(first.body);
    await emu.control.advanceClock(CACHE_SECONDS * 1000);
    const rechecked = await checkDns(emu, d);
    expect(propagation(rechecked.body)).toEqual({ DKIM: true, "Return-Path": false, DMARC: true, Tracking: true });
    expect(rechecked.body.dns_valid).toBe(false);
    // The emulator's clock runs on beside the advance.
    expect(Date.parse(rechecked.body.last_dns_check_at!)).toBeGreaterThanOrEqual(
      Date.parse(first.body.last_dns_check_at!) + CACHE_SECONDS * 1000,
    );
    expect((await getDomain(emu, d)).body).toEqual(rechecked.body);
  });

  test("a domain in no zone the server has (REFUSED): 503, nothing stored", async () => {
    const r = await emu.req<Domain>("POST", emu.acct("/domains"), { body: { domain: `${uniq("d")}.nozone.example` } });
    const check = await emu.req("POST", emu.acct(`/domains/${r.body.domain}/check-dns`));
    expectError(check, 503, /^managed DNS unavailable$/);
    expect((await emu.req<Domain>("GET", emu.acct(`/domains/${r.body.domain}`))).body.last_dns_check_at).toBeNull();
  });

  test("the control surface's verification flag is refused: DNS comes from the server", async () => {
    const d = await createDomain(emu);
    await expect(emu.control.setDomainVerified(d.domain, true)).rejects.toThrow(/409.*--dns-server/s);
    expect((await getDomain(emu, d)).body.dns_valid).toBe(false);
  });
});

test("the DNS server down: check-dns answers 503 and stores nothing", async () => {
  const own = await startDnsServer();
  const e = await start({ dnsServer: own.address, dnsCacheSeconds: CACHE_SECONDS });
  try {
    await own.createZone(ZONE);
    const checked = await createDomain(e);
    const never = await createDomain(e);
    for (const r of checked.dns_records) await own.setRecord(r.host, r.type as "CNAME" | "TXT", [r.content]);
    const before = await checkDns(e, checked);
    expect(before.body.dns_valid).toBe(true);
    await own.close();
    await e.control.advanceClock(CACHE_SECONDS * 1000);
    for (const d of [checked, never]) expectError(await checkDns(e, d), 503, /^managed DNS unavailable$/);
    // Nothing recorded: the last check's result and time stand.
    expect((await getDomain(e, checked)).body).toEqual(before.body);
    expect((await getDomain(e, never)).body.last_dns_check_at).toBeNull();
  } finally {
    await e.close();
    await own.close();
  }
}, 60_000);

test("a domain stored by an emulator without a DNS server reads as before; its next check resolves per record", async () => {
  const dir = mkdtempSync(join(tmpdir(), "txmail-emu-"));
  try {
    const flagged = await start({ dataDir: dir });
    const d = await createDomain(flagged);
    await flagged.control.setDomainVerified(d.domain, true);
    await flagged.close();
    const resolving = await start({ dataDir: dir, dnsServer: server.address, dnsCacheSeconds: CACHE_SECONDS });
    try {
      // The stored row has no per-record result: every record is what the flag's check said.
      const stored = (await getDomain(resolving, d)).body;
      expect([stored.dns_valid, stored.dns_records.every((r) => r.propagated)]).toEqual([true, true]);
      await publish(d.dns_records.filter((r) => r.label !== "DKIM"));
      await resolving.control.advanceClock(CACHE_SECONDS * 1000);
      const r = await checkDns(resolving, d);
      expect(propagation(r.body)).toEqual({ DKIM: false, "Return-Path": true, DMARC: true, Tracking: true });
      expect(r.body.dns_valid).toBe(false);
    } finally {
      await resolving.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test("--dns-server takes an IP address and a port; --dns-cache-seconds a number >= 0", async () => {
  await expect(start({ dnsServer: "localhost:53" })).rejects.toThrow(/dnsServer \(--dns-server\) must be HOST:PORT/);
  await expect(start({ dnsServer: "127.0.0.1" })).rejects.toThrow(/dnsServer \(--dns-server\) must be HOST:PORT/);
  await expect(start({ dnsCacheSeconds: -1 })).rejects.toThrow(/dnsCacheSeconds/);
});
