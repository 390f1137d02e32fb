// What `txmail-fleet dns` reports per tenant: its domain's DNS records as the service holds them now,
// and whether the service has seen them. Never a key: the workers read with them and send only this.

import type { DnsRecordReport } from "../../provider/dns";

/** One record to publish, as the service gives it (provider/dns: the `dnsRecords` output's shape). */
export type DnsRecordView = DnsRecordReport;

/**
 * - `read`: the domain was read from the service (verified or not: `dnsValid`);
 * - `no-domain`: the tenant has no domain, in its shard's state or in the tenants file;
 * - `not-applied`: its shard was never applied, or not since the tenant or its domain was added;
 * - `deleted`: the shard's state records the domain, and the service no longer has it;
 * - `unreadable`: the shard's state or the service could not be read (`note` says why).
 */
export type TenantDnsStatus = "read" | "no-domain" | "not-applied" | "deleted" | "unreadable";

export interface TenantDns {
  tenant: string;
  /** The tenant's shard stack (`shard-001`). */
  shard: string;
  status: TenantDnsStatus;
  domain: string | null;
  /** Whether the service saw every required record at its last check; null when not read. */
  dnsValid: boolean | null;
  /** When the service last checked the domain's DNS (RFC 3339); null before its first check or when not read. */
  lastCheckedAt: string | null;
  records: DnsRecordView[];
  /** Why there are no records (not applied, not read), or a change pending in the tenants file. */
  note?: string;
  /** `--check-dns`: whether the service's one re-check was made, and why not. */
  checkDns?: { ok: true } | { ok: false; error: string };
}

/** One shard's answer from its worker. */
export interface ShardDns {
  shard: string;
  tenants: TenantDns[];
}
