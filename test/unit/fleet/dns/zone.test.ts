// `txmail-fleet dns --zone` (fleet/dns/zone.ts): the exact fragment for a known fleet, TXT texts split
// into strings of at most 255 octets and read back whole, names made absolute, what would not load
// left out — and, when PowerDNS is set up (.tools/pdns, `scripts/setup.sh --with dns`), the fragment
// loaded by a real zone parser (`pdnsutil load-zone`), whose records are the service's.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { absoluteName, recordLine, TXT_STRING_MAX, txtStrings, zoneFragment } from "../../../../fleet/dns/zone";
import { requiredOnly } from "../../../../fleet/dns/report";
import type { DnsRecordView, TenantDns } from "../../../../fleet/dns/types";
import { TOOLS_DIR } from "../../../../support/root";
import { ACME, DKIM_TXT, FLEET, INITECH } from "./fixture";

const READ_AT = new Date("2026-11-27T10:00:00.000Z");

/**
 * The character-strings of a TXT record's data as a zone-file reader takes them (RFC 1035 §5.1):
 * quoted strings separated by blanks, `\X` the character X, `\DDD` the octet DDD. Written apart from
 * the code under test, so that a round trip proves the quoting, not its mirror image.
 */
function readTxt(data: string): Buffer[] {
  const strings: Buffer[] = [];
  let i = 0;
  while (i < data.length) {
    if (data[i] === " ") {
      i++;
      continue;
    }
    if (data[i] !== '"') throw new Error(`expected a quoted string at ${i} of ${data}`);
    const octets: number[] = [];
    for (i++; data[i] !== '"'; i++) {
      if (i >= data.length) throw new Error(`unterminated string in ${data}`);
      if (data[i] !== "\\") {
        octets.push(data.charCodeAt(i));
        continue;
      }
      const digits = /^\d{3}/.exec(data.slice(i + 1))?.[0];
      octets.push(digits ? Number(digits) : data.charCodeAt(i + 1));
      i += digits ? 3 : 1;
    }
    i++;
    strings.push(Buffer.from(octets));
  }
  return strings;
}

describe("the zone-file fragment", () => {
  it("is exactly this for a known fleet: $TTL, absolute names, a comment per tenant and record, no tenant without a domain", () => {
    const key = DKIM_TXT.slice(0, TXT_STRING_MAX);
    const rest = DKIM_TXT.slice(TXT_STRING_MAX);
    expect(zoneFragment(FLEET, { readAt: READ_AT, requiredOnly: false })).toBe(
      [
        "; txmail-fleet dns --zone: the DNS records of the tenants' sending domains, read from the service at 2026-11-27T10:00:00.000Z.",
        "; Required and optional records (--required-only leaves the optional ones out).",
        "; Names are absolute: load it into the zones that hold these domains, or $INCLUDE it there.",
        "$TTL 3600",
        "",
        "; tenant acme (shard-001), domain mail.acme.example.com: verified, last checked 2026-11-27T09:00:00.000Z",
        "; DKIM: required, seen by the service",
        "txm1._domainkey.mail.acme.example.com. IN CNAME txm1.5d41402abc4b.dkim.txmail.test.",
        "; Return-Path: required, seen by the service",
        "rp.mail.acme.example.com. IN CNAME rp.txmail.test.",
        "; DMARC: optional, seen by the service",
        '_dmarc.mail.acme.example.com. IN TXT "v=DMARC1; p=none;"',
        "; Tracking: optional, seen by the service",
        "track.mail.acme.example.com. IN CNAME track.txmail.test.",
        "",
        "; tenant initech (shard-001), domain mail.initech.example.com: not verified, last checked never",
        "; DKIM: required, not seen by the service yet",
        `txm1._domainkey.mail.initech.example.com. IN TXT "${key}" "${rest}"`,
        "; Return-Path: required, not seen by the service yet",
        "rp.mail.initech.example.com. IN CNAME rp.txmail.test.",
        "; DMARC: optional, not seen by the service yet",
        '_dmarc.mail.initech.example.com. IN TXT "v=DMARC1; p=none;"',
        "",
        "; tenant hooli (shard-002), no records: not applied (shard-002 was never applied: txmail-fleet up)",
        "",
      ].join("\n"),
    );
  });

  it("--required-only leaves the optional records out, and says so", () => {
    for (const tenants of [FLEET, requiredOnly(FLEET)]) {
      const zone = zoneFragment(tenants, { readAt: READ_AT, requiredOnly: true });
      expect(zone).toContain("; Required records only (--required-only): the optional ones are left out.");
      expect(zone).not.toMatch(/_dmarc|track\.|optional,/);
      expect(zone.match(/ IN /g)).toHaveLength(4);
    }
  });

  it.each([
    ["empty", ""],
    ["one octet", "x"],
    ["exactly one string", "a".repeat(255)],
    ["one octet more", "a".repeat(256)],
    ["a DKIM key", DKIM_TXT],
    ["three strings and a bit", "k".repeat(3 * 255 + 7)],
    ["quotes, backslashes, semicolons", 'v=spf1 "quoted" \\ back; slash;'.repeat(20)],
    ["UTF-8 and control characters, split mid-character", `${"é".repeat(200)}\t\n€`],
  ])("TXT: %s is split into strings of at most 255 octets that read back to the same text", (_, text) => {
    const strings = readTxt(txtStrings(text));
    expect(strings.length).toBe(Math.max(1, Math.ceil(Buffer.byteLength(text) / 255)));
    for (const s of strings) expect(s.length).toBeLessThanOrEqual(255);
    expect(Buffer.concat(strings).toString("utf8")).toBe(text);
    // One line, printable ASCII only: nothing a zone file or a terminal would take apart.
    expect(txtStrings(text)).toMatch(/^[\x20-\x7e]+$/);
  });

  it.each([
    ["_dmarc.mail.example.com", "mail.example.com", "_dmarc.mail.example.com."],
    ["mail.example.com", "mail.example.com", "mail.example.com."],
    ["MAIL.Example.com", "mail.example.com", "MAIL.Example.com."],
    ["rp.mail.example.com.", "mail.example.com", "rp.mail.example.com."],
    ["_dmarc", "mail.example.com", "_dmarc.mail.example.com."],
    ["@", "mail.example.com", "mail.example.com."],
    // Not under the domain but ending like it: relative, not a suffix match on characters.
    ["xmail.example.com", "mail.example.com", "xmail.example.com.mail.example.com."],
  ])("the host %s of %s is %s", (host, domain, absolute) => {
    expect(absoluteName(host, domain)).toBe(absolute);
  });

  const record = (over: Partial<DnsRecordView>): DnsRecordView => ({
    label: "x",
    type: "CNAME",
    host: "a.mail.example.com",
    value: "b.txmail.test",
    required: true,
    propagated: false,
    ...over,
  });
  it.each([
    [{ type: "MX", value: "10 mx.txmail.test" }, "a.mail.example.com. IN MX 10 mx.txmail.test."],
    [{ type: "cname", value: "b.txmail.test." }, "a.mail.example.com. IN CNAME b.txmail.test."],
    [{ type: "CAA", value: "0 issue letsencrypt.org" }, "a.mail.example.com. IN CAA 0 issue letsencrypt.org"],
    [{ host: "a b.example.com" }, { problem: "its host is not a DNS name" }],
    [{ host: "a.example.com\n@ IN NS evil." }, { problem: "its host is not a DNS name" }],
    [{ value: "b.txmail.test ; x" }, { problem: "its value is not a DNS name" }],
    [{ type: "MX", value: "mx.txmail.test" }, { problem: "its value is not '<preference> <name>'" }],
    [{ type: "CAA", value: '0 issue "x"' }, { problem: "its value cannot be written as given" }],
    [{ type: "TXT A" }, { problem: "its type is not a record type" }],
  ])("a record %j is %j", (over, line) => {
    expect(recordLine(record(over), "mail.example.com")).toEqual(line);
  });

  it("a record that would not load is left out with a comment on one line, never written", () => {
    const odd: TenantDns = {
      ...ACME,
      records: [record({ label: "Odd\nlabel", host: "a b.mail.acme.example.com", value: "x\n@ IN NS evil." })],
    };
    const zone = zoneFragment([odd], { readAt: READ_AT, requiredOnly: false });
    expect(zone.split("\n").filter((l) => l && !l.startsWith(";") && !l.startsWith("$"))).toEqual([]);
    expect(zone).toContain(
      "; Odd label: required, not seen by the service yet; not written: its host is not a DNS name (CNAME a b.mail.acme.example.com x @ IN NS evil.)",
    );
  });
});

/** PowerDNS as `scripts/setup.sh --with dns` unpacks it (support/dnsServer.ts runs its server). */
const PDNS = path.join(TOOLS_DIR, "pdns");

describe("the zone-file fragment, read by a real zone parser (PowerDNS's pdnsutil)", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-zone-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** `pdnsutil load-zone` of the fragment under a SOA, then its records as PowerDNS stored them. */
  function loadZone(fragment: string): Array<{ name: string; type: string; content: string }> {
    if (!fs.existsSync(path.join(PDNS, ".complete")))
      throw new Error(`no PowerDNS in ${PDNS}: run 'bash scripts/setup.sh --with dns' (the test command does)`);
    const lib = path.join(PDNS, "root", "usr", "lib", "x86_64-linux-gnu");
    const db = path.join(dir, "pdns.sqlite");
    fs.rmSync(db, { force: true });
    const schema = path.join(PDNS, "root", "usr", "share", "pdns-backend-sqlite3", "schema", "schema.sqlite3.sql");
    const sqlite = new DatabaseSync(db);
    sqlite.exec(fs.readFileSync(schema, "utf8"));
    sqlite.close();
    fs.writeFileSync(
      path.join(dir, "pdns.conf"),
      `launch=gsqlite3\ngsqlite3-database=${db}\nmodule-dir=${path.join(lib, "pdns")}\n`,
    );
    const zone = path.join(dir, "example.com.zone");
    // What the DNS team's zone has around the fragment: its SOA and NS records.
    const apex = "example.com. 3600 IN SOA ns1.example.com. hostmaster.example.com. 1 3600 600 86400 3600\n";
    const ns = "example.com. 3600 IN NS ns1.example.com.\n";
    fs.writeFileSync(zone, `${apex}${ns}${fragment}`);
    const pdnsutil = (...args: string[]) =>
      execFileSync(path.join(PDNS, "root", "usr", "bin", "pdnsutil"), [`--config-dir=${dir}`, ...args], {
        env: { ...process.env, LD_LIBRARY_PATH: lib },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
    // A record it cannot parse is an error here (exit 1), not a warning.
    pdnsutil("load-zone", "example.com", zone);
    expect(pdnsutil("check-zone", "example.com")).toMatch(/, 0 errors/);
    const sql = new DatabaseSync(db);
    const rows = sql
      .prepare("SELECT name, type, content FROM records WHERE type NOT IN ('SOA', 'NS') ORDER BY id")
      .all();
    sql.close();
    return rows as Array<{ name: string; type: string; content: string }>;
  }

  it("loads, and holds exactly the service's records: absolute names, CNAME targets, TXT texts whole", () => {
    const records = loadZone(zoneFragment(FLEET, { readAt: READ_AT, requiredOnly: false }));
    const expected = [ACME, INITECH].flatMap((t) =>
      t.records.map((r) => ({ name: r.host, type: r.type, value: r.value })),
    );
    expect(
      records.map((r) => ({
        name: r.name,
        type: r.type,
        value: r.type === "TXT" ? Buffer.concat(readTxt(r.content)).toString("utf8") : r.content,
      })),
    ).toEqual(expected);
    // The DKIM key's text is stored as the strings the fragment gave (none longer than 255 octets).
    const dkim = records.find((r) => r.name === "txm1._domainkey.mail.initech.example.com")!;
    expect(readTxt(dkim.content).map((s) => s.length)).toEqual([255, Buffer.byteLength(DKIM_TXT) - 255]);
  });
});
