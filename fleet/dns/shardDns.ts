// One shard's part of `txmail-fleet dns`, in its worker: the shard stack's outputs say each tenant's
// sub account, domain and bootstrap key (fleet/shardOutputs.ts); the domain is then read from the
// service with that key (`GET /domains/{domain}`: `domains:read`, no write). With --check-dns the
// service is first asked to check the domain's DNS again (`POST …/check-dns`), once: the contract
// makes it a one-shot action, not retry-safe (docs/contract/retries.md#retry-safe-requests), and the
// client sends such a request once whatever it is answered. Keys never leave this process.
import { type Stack, StackNotFoundError } from "@pulumi/pulumi/automation";
import { Domain, paths } from "../../provider/api";
import { type Api, isNotFound } from "../../provider/core/api";
import { reportedRecords, requestCheck } from "../../provider/dns";
import type { TenantEntry } from "../../sdk/nodejs/tenantsFile";
import { runBounded } from "../pool";
import { readShardOutputs, type ShardOutputs, TENANT_LANES, tenantApi } from "../shardOutputs";
import type { ShardDns, TenantDns } from "./types";

export interface ShardDnsSource {
  shard: string;
  /** The stack's outputs; rejects with StackNotFoundError for a shard never applied. */
  outputs(): Promise<ShardOutputs>;
  /** The service as a tenant's sub account sees it, with its own key. */
  api(apiKey: string, subAccountId: string): Pick<Api, "get" | "post">;
}

/** The shard stack's outputs, and the service through the fleet's client. */
export function stackSource(stack: Stack): ShardDnsSource {
  return { shard: stack.name, outputs: () => readShardOutputs(stack), api: tenantApi };
}

/** Each of `entries` (the shard's tenants asked for) with its domain as the service holds it now. */
export async function readShardDns(
  source: ShardDnsSource,
  entries: readonly TenantEntry[],
  o: { checkDns: boolean },
): Promise<ShardDns> {
  const { shard } = source;
  let outputs: ShardOutputs;
  try {
    outputs = await source.outputs();
  } catch (e) {
    // A check never creates a stack: a shard that does not exist yet has nothing to show.
    if (!(e instanceof StackNotFoundError)) throw e;
    const note = `${shard} was never applied: txmail-fleet up`;
    return { shard, tenants: entries.map((t) => ({ ...nothing(t.name, shard, "not-applied"), note })) };
  }
  const tenants = await runBounded(entries, TENANT_LANES, (t) => tenantDns(source, outputs, t, o.checkDns));
  // Every entry has its answer: runBounded is never stopped here.
  return { shard, tenants: tenants.map((t, i) => t ?? nothing(entries[i]!.name, shard, "unreadable")) };
}

function nothing(tenant: string, shard: string, status: TenantDns["status"]): TenantDns {
  return { tenant, shard, status, domain: null, dnsValid: null, lastCheckedAt: null, records: [] };
}

async function tenantDns(
  source: ShardDnsSource,
  outputs: ShardOutputs,
  entry: TenantEntry,
  checkDns: boolean,
): Promise<TenantDns> {
  const { shard } = source;
  const tenant = entry.name;
  const summary = outputs.summaries.get(tenant);
  if (!summary) {
    return { ...nothing(tenant, shard, "not-applied"), note: `not in ${shard}'s state yet: txmail-fleet up` };
  }
  const domain = summary.domain;
  if (!domain) {
    // The tenants file names a domain its shard has not made yet.
    if (entry.domain) {
      return {
        ...nothing(tenant, shard, "not-applied"),
        note: `${entry.domain} is in the tenants file, not yet at the service: txmail-fleet up`,
      };
    }
    return nothing(tenant, shard, "no-domain");
  }
  // The service holds what the state records until the next up applies the tenants file.
  const pending =
    entry.domain === undefined
      ? { note: "not in the tenants file any more: deleted at the next up" }
      : entry.domain.toLowerCase() !== domain
        ? { note: `the tenants file names ${entry.domain}: replaced at the next up` }
        : {};
  const named = { ...nothing(tenant, shard, "unreadable"), domain, ...pending };
  const key = outputs.bootstrapKeys.get(tenant);
  if (!key || !summary.subAccountId) {
    return { ...named, note: "its shard's state holds no bootstrap key of this tenant (adopted key?)" };
  }
  const api = source.api(key, summary.subAccountId);
  let record: Domain | undefined;
  let check: TenantDns["checkDns"];
  if (checkDns) {
    try {
      record = await requestCheck(api, summary.subAccountId, domain);
      check = { ok: true };
    } catch (e) {
      // Said, and the domain read as it stands: what the service saw at its last check.
      check = { ok: false, error: firstLine(e) };
    }
  }
  try {
    record ??= await api.get(paths.domain(summary.subAccountId, domain), Domain);
  } catch (e) {
    const gone = isNotFound(e);
    return {
      ...named,
      status: gone ? "deleted" : "unreadable",
      note: gone ? "its shard's state still records it: txmail-fleet up makes it again" : firstLine(e),
      ...(check && { checkDns: check }),
    };
  }
  return {
    ...named,
    status: "read",
    dnsValid: record.dns_valid,
    lastCheckedAt: record.last_dns_check_at,
    records: reportedRecords(record),
    ...(check && { checkDns: check }),
  };
}

const firstLine = (e: unknown) =>
  ((e instanceof Error ? e.message : String(e)).split("\n").find((l) => l.trim()) ?? "failed").trim().slice(0, 300);
