// The `txmail-fleet dns` report (fleet/dns/report.ts): the exact terminal text for a known fleet
// (a line per tenant, one table with the value last), the exit codes, and --required-only.
import {
  DNS_EXIT,
  dnsExitCode,
  dnsHeadline,
  domainLine,
  requiredOnly,
  terminalDnsReport,
} from "../../../../fleet/dns/report";
import type { TenantDns } from "../../../../fleet/dns/types";
import { ACME, DKIM_TXT, FLEET, GLOBEX, HOOLI, INITECH } from "./fixture";

describe("the dns report", () => {
  it("is exactly this on the terminal: a line per tenant, then every record with its value last and whole", () => {
    expect(terminalDnsReport(FLEET, dnsExitCode(FLEET))).toBe(
      [
        "4 tenants in 2 shards: 1 domain verified, 1 not verified, 1 tenant without a domain, 1 not applied yet",
        "",
        "acme (shard-001) mail.acme.example.com: verified yes, last checked 2026-11-27T09:00:00.000Z",
        "initech (shard-001) mail.initech.example.com: verified no, last checked never; required, not seen: DKIM, Return-Path",
        "globex (shard-001): no domain",
        "hooli (shard-002): not applied — shard-002 was never applied: txmail-fleet up",
        "",
        "records (propagated: seen by the service at its last check):",
        "tenant   domain                    label        type   host                                      required  propagated  value",
        "-------  ------------------------  -----------  -----  ----------------------------------------  --------  ----------  -----",
        "acme     mail.acme.example.com     DKIM         CNAME  txm1._domainkey.mail.acme.example.com     yes       yes         txm1.5d41402abc4b.dkim.txmail.test",
        "acme     mail.acme.example.com     Return-Path  CNAME  rp.mail.acme.example.com                  yes       yes         rp.txmail.test",
        "acme     mail.acme.example.com     DMARC        TXT    _dmarc.mail.acme.example.com              no        yes         v=DMARC1; p=none;",
        "acme     mail.acme.example.com     Tracking     CNAME  track.mail.acme.example.com               no        yes         track.txmail.test",
        `initech  mail.initech.example.com  DKIM         TXT    txm1._domainkey.mail.initech.example.com  yes       no          ${DKIM_TXT}`,
        "initech  mail.initech.example.com  Return-Path  CNAME  rp.mail.initech.example.com               yes       no          rp.txmail.test",
        "initech  mail.initech.example.com  DMARC        TXT    _dmarc.mail.initech.example.com           no        no          v=DMARC1; p=none;",
        "globex   no domain",
        "hooli    (not applied)",
        "exit 3",
      ].join("\n"),
    );
  });

  const unreadable: TenantDns = {
    ...GLOBEX,
    tenant: "umbrella",
    status: "unreadable",
    domain: "mail.umbrella.example.com",
    note: "GET /v2/accounts/…/domains/mail.umbrella.example.com: 403 forbidden",
  };
  const deleted: TenantDns = {
    ...unreadable,
    tenant: "soylent",
    status: "deleted",
    note: "its shard's state still records it: txmail-fleet up makes it again",
  };
  const checkFailed: TenantDns = { ...ACME, checkDns: { ok: false, error: "POST …/check-dns: 429 rate limited" } };
  const stale: TenantDns = { ...ACME, dnsValid: true, records: [{ ...ACME.records[0]!, propagated: false }] };

  it.each<[string, TenantDns[], number]>([
    [
      "every domain verified; tenants without a domain or not applied do not count",
      [ACME, GLOBEX, HOOLI],
      DNS_EXIT.verified,
    ],
    ["nothing to show at all", [GLOBEX, HOOLI], DNS_EXIT.verified],
    ["a domain not verified", [ACME, INITECH], DNS_EXIT.missing],
    ["a required record not seen, whatever the flag says", [stale], DNS_EXIT.missing],
    ["a domain gone at the service", [ACME, deleted], DNS_EXIT.missing],
    ["a domain that could not be read (wins over 3)", [INITECH, unreadable], DNS_EXIT.incomplete],
    ["a --check-dns that failed", [checkFailed], DNS_EXIT.incomplete],
  ])("exit code: %s", (_, tenants, code) => {
    expect(dnsExitCode(tenants)).toBe(code);
  });

  it("says why a domain has no records, and what a --check-dns did", () => {
    expect(domainLine(unreadable)).toBe(
      "umbrella (shard-001) mail.umbrella.example.com: not read — GET /v2/accounts/…/domains/mail.umbrella.example.com: 403 forbidden",
    );
    expect(domainLine(deleted)).toBe(
      "soylent (shard-001) mail.umbrella.example.com: deleted at the service — its shard's state still records it: txmail-fleet up makes it again",
    );
    expect(domainLine(checkFailed)).toBe(
      "acme (shard-001) mail.acme.example.com: verified yes, last checked 2026-11-27T09:00:00.000Z; check-dns failed: POST …/check-dns: 429 rate limited",
    );
    expect(domainLine({ ...ACME, checkDns: { ok: true } })).toMatch(/; checked now \(--check-dns\)$/);
    expect(dnsHeadline([ACME, unreadable, deleted])).toBe(
      "3 tenants in 1 shard: 1 domain verified, 0 not verified, 1 deleted at the service, 0 tenants without a domain, 1 not read",
    );
  });

  it("--required-only keeps the required records and changes no verdict", () => {
    const required = requiredOnly(FLEET);
    expect(required.flatMap((t) => t.records.map((r) => `${t.tenant} ${r.label}`))).toEqual([
      "acme DKIM",
      "acme Return-Path",
      "initech DKIM",
      "initech Return-Path",
    ]);
    expect(dnsExitCode(required)).toBe(dnsExitCode(FLEET));
    expect(terminalDnsReport(required, 3)).not.toContain("DMARC");
  });
});
