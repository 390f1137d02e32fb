// A fleet's dns answer as the workers send it (fleet/dns/types.ts), for the report and zone tests:
// acme verified, initech not (its DKIM key its own: a TXT record longer than one string holds),
// globex without a domain, hooli in a shard never applied.
import type { DnsRecordView, TenantDns } from "../../../../fleet/dns/types";

/** A 2048-bit RSA public key's base64 SPKI is 392 characters; its DKIM record's text ~410. */
export const DKIM_KEY = `MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${"q7Z".repeat(114)}IDAQAB`;
export const DKIM_TXT = `v=DKIM1; k=rsa; p=${DKIM_KEY}`;

const rec = (
  label: string,
  type: string,
  host: string,
  value: string,
  required: boolean,
  propagated: boolean,
): DnsRecordView => ({ label, type, host, value, required, propagated });

export const ACME: TenantDns = {
  tenant: "acme",
  shard: "shard-001",
  status: "read",
  domain: "mail.acme.example.com",
  dnsValid: true,
  lastCheckedAt: "2026-11-27T09:00:00.000Z",
  records: [
    rec("DKIM", "CNAME", "txm1._domainkey.mail.acme.example.com", "txm1.5d41402abc4b.dkim.txmail.test", true, true),
    rec("Return-Path", "CNAME", "rp.mail.acme.example.com", "rp.txmail.test", true, true),
    rec("DMARC", "TXT", "_dmarc.mail.acme.example.com", "v=DMARC1; p=none;", false, true),
    rec("Tracking", "CNAME", "track.mail.acme.example.com", "track.txmail.test", false, true),
  ],
};

export const INITECH: TenantDns = {
  tenant: "initech",
  shard: "shard-001",
  status: "read",
  domain: "mail.initech.example.com",
  dnsValid: false,
  lastCheckedAt: null,
  records: [
    rec("DKIM", "TXT", "txm1._domainkey.mail.initech.example.com", DKIM_TXT, true, false),
    rec("Return-Path", "CNAME", "rp.mail.initech.example.com", "rp.txmail.test", true, false),
    rec("DMARC", "TXT", "_dmarc.mail.initech.example.com", "v=DMARC1; p=none;", false, false),
  ],
};

export const GLOBEX: TenantDns = {
  tenant: "globex",
  shard: "shard-001",
  status: "no-domain",
  domain: null,
  dnsValid: null,
  lastCheckedAt: null,
  records: [],
};

export const HOOLI: TenantDns = {
  tenant: "hooli",
  shard: "shard-002",
  status: "not-applied",
  domain: null,
  dnsValid: null,
  lastCheckedAt: null,
  records: [],
  note: "shard-002 was never applied: txmail-fleet up",
};

export const FLEET: TenantDns[] = [ACME, INITECH, GLOBEX, HOOLI];
