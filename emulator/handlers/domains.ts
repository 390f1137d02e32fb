// Domains, addressed by name. DNS records are generated deterministically from the account, the
// name and the settings. Verification: without a DNS server the "world" DNS state is a flag the
// control surface flips; with one (--dns-server) each record is resolved through it (../dns.ts).
// `dns_valid`, `propagated` and `last_dns_check_at` reflect the last check. `check-dns` re-checks,
// but answers from the service's 60-second cache (--dns-cache-seconds) when the last check is more
// recent (docs/contract/endpoints/domains.md#endpoints).
import { createPrivateKey, createPublicKey } from "node:crypto";
import { CreateDomain, type DnsRecord, type Domain, UpdateDomain } from "../../provider/api";
import { requireDomains } from "../authz";
import type { Ctx, EmulatedEndpoints, Services } from "../context";
import { sha256, uuid } from "../crypto";
import { DNS_UNAVAILABLE, propagationKey, resolvePropagated } from "../dns";
import { HttpError, badRequest, conflict, notFound } from "../http/errors";
import { PAGE_QUERY, listPage } from "../pagination";
import { parseBody } from "../validate";
import { DELETED, created, ok } from "./common";

/** What this file stores (domains): a row's type and its section of the state dump (emulator/store/objects.ts). */
export const STORED = { domain: "domains" } as const;

const SERVICE_HOST = "txmail.test";

export interface DomainData extends Omit<Domain, "dns_records"> {
  /** The world's DNS state (flipped by the control surface). */
  world_verified: boolean;
  /** Base64 SPKI of a customer-supplied DKIM key (the private key is never stored). */
  dkim_public_key: string | null;
  /**
   * The records (propagationKey) the last check through a DNS server found. Absent when the last
   * check read the flag, or came before this field (stored rows of older emulators): then every
   * record's `propagated` is `dns_valid`, as it always was.
   */
  dns_propagated?: string[];
}

export function dnsRecords(d: DomainData): DnsRecord[] {
  const h = sha256(`${d.account_id}|${d.domain}`).slice(0, 12);
  const sel = d.dkim_selector || "txm1";
  const recs: DnsRecord[] = [
    d.dkim_public_key
      ? {
          type: "TXT",
          label: "DKIM",
          host: `${sel}._domainkey.${d.domain}`,
          content: `v=DKIM1; k=rsa; p=${d.dkim_public_key}`,
          required: true,
          propagated: false,
        }
      : {
          type: "CNAME",
          label: "DKIM",
          host: `${sel}._domainkey.${d.domain}`,
          content: `${sel}.${h}.dkim.${SERVICE_HOST}`,
          required: true,
          propagated: false,
        },
    {
      type: "CNAME",
      label: "Return-Path",
      host: `${d.return_path_subdomain ?? "rp"}.${d.domain}`,
      content: `rp.${SERVICE_HOST}`,
      required: true,
      propagated: false,
    },
    {
      type: "TXT",
      label: "DMARC",
      host: `_dmarc.${d.domain}`,
      content: "v=DMARC1; p=none;",
      required: false,
      propagated: false,
    },
    {
      type: "CNAME",
      label: "Tracking",
      host: `${d.tracking_subdomain ?? "track"}.${d.domain}`,
      content: `track.${SERVICE_HOST}`,
      required: false,
      propagated: false,
    },
  ];
  if (d.subscription_subdomain) {
    recs.push({
      type: "CNAME",
      label: "Subscription",
      host: `${d.subscription_subdomain}.${d.domain}`,
      content: `subscribe.${SERVICE_HOST}`,
      required: false,
      propagated: false,
    });
  }
  if (d.media_subdomain) {
    recs.push({
      type: "CNAME",
      label: "Media",
      host: `${d.media_subdomain}.${d.domain}`,
      content: `media.${SERVICE_HOST}`,
      required: false,
      propagated: false,
    });
  }
  // `propagated` is filled in here, from the last check: per record after a check through a DNS
  // server, else the domain's one flag.
  const seen = d.dns_propagated && new Set(d.dns_propagated);
  return recs.map((r) => ({ ...r, propagated: seen ? seen.has(propagationKey(r)) : d.dns_valid }));
}

export function domainRecord(d: DomainData): Domain {
  const { world_verified: _w, dkim_public_key: _k, dns_propagated: _p, ...rest } = d;
  return { ...rest, dns_records: dnsRecords(d) };
}

function dkimPublicKey(pem: string): string {
  try {
    const k = createPrivateKey(pem);
    const bits = k.asymmetricKeyDetails?.modulusLength ?? 0;
    if (k.asymmetricKeyType !== "rsa" || bits < 1024) throw new Error("weak");
    return (createPublicKey(k).export({ type: "spki", format: "der" }) as Buffer).toString("base64");
  } catch {
    throw badRequest("dkim_private_key: must be a PEM RSA private key of at least 1024 bits");
  }
}

export function findDomain(svc: Services, accountId: string, name: string): DomainData | undefined {
  return svc.objects.byName<DomainData>("domain", accountId, name.toLowerCase())?.data;
}

function target(ctx: Ctx): DomainData {
  const d = findDomain(ctx.svc, ctx.account.id, ctx.params.domain!);
  if (!d) throw notFound("domain not found");
  return d;
}

function create(ctx: Ctx) {
  const b = parseBody(CreateDomain, ctx.json());
  const name = b.domain.toLowerCase();
  if (findDomain(ctx.svc, ctx.account.id, name)) throw conflict("domain already exists");
  const now = ctx.iso();
  const d: DomainData = {
    object: "domain",
    id: uuid(),
    created_at: now,
    updated_at: now,
    domain: name,
    account_id: ctx.account.id,
    last_dns_check_at: null,
    dns_valid: false,
    tracking_subdomain: b.tracking_subdomain ?? null,
    return_path_subdomain: b.return_path_subdomain ?? null,
    subscription_subdomain: b.subscription_subdomain ?? null,
    media_subdomain: b.media_subdomain ?? null,
    dkim_rotation_interval_days: b.dkim_rotation_interval_days ?? null,
    dkim_selector: b.dkim_selector ? b.dkim_selector : null,
    dsn_recipient: null,
    rotation_ready: false,
    world_verified: false,
    dkim_public_key: b.dkim_private_key === undefined ? null : dkimPublicKey(b.dkim_private_key),
  };
  ctx.svc.objects.insert("domain", d.id, ctx.account.id, d, name);
  return created(domainRecord(d));
}

function list(ctx: Ctx) {
  const v = ctx.query.get("dns_valid");
  if (v !== null && v !== "true" && v !== "false") throw badRequest("dns_valid must be true or false");
  const filter =
    v === null
      ? undefined
      : { sig: `dns_valid=${v}`, keep: (r: { data: DomainData }) => r.data.dns_valid === (v === "true") };
  return ok(
    listPage<DomainData, Domain>(
      ctx.svc.objects,
      "domain",
      ctx.account.id,
      ctx.query,
      (r) => domainRecord(r.data),
      filter,
    ),
  );
}

function update(ctx: Ctx) {
  const d = target(ctx);
  const raw = ctx.json();
  if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    for (const f of ["domain", "dkim_private_key"]) {
      if (f in raw)
        throw badRequest(
          `${f}: cannot be changed; a different ${f === "domain" ? "name" : "DKIM key"} needs a new domain (replacement)`,
        );
    }
  }
  const b = parseBody(UpdateDomain, raw);
  const next: DomainData = { ...d };
  for (const f of [
    "tracking_subdomain",
    "return_path_subdomain",
    "subscription_subdomain",
    "media_subdomain",
    "dkim_rotation_interval_days",
  ] as const) {
    if (b[f] != null) (next as unknown as Record<string, unknown>)[f] = b[f];
  }
  if (b.dkim_selector != null) next.dkim_selector = b.dkim_selector === "" ? null : b.dkim_selector;
  next.updated_at = ctx.iso();
  ctx.svc.objects.update(d.id, next);
  return ok(domainRecord(next));
}

function remove(ctx: Ctx) {
  const d = target(ctx);
  requireDomains(ctx.key, "domains", "delete", [d.domain], "any");
  ctx.svc.objects.delete(d.id);
  return ok({ message: DELETED });
}

/** Whether a check at `now` answers the stored result: the last check is within the cache. */
function cached(svc: Services, d: DomainData, now: number): boolean {
  const last = d.last_dns_check_at ? Date.parse(d.last_dns_check_at) : -Infinity;
  return now - last < svc.dns.cacheMs;
}

/**
 * Records a check at `now` unless the last one is within the cache. `propagated`: what the DNS
 * server was found to hold (resolvePropagated), when there is one; without one the flag decides.
 */
export function checkDns(
  svc: Services,
  d: DomainData,
  now: number,
  opts: { force?: boolean; propagated?: string[] } = {},
): DomainData {
  if (!opts.force && cached(svc, d, now)) return d;
  const checked_at = new Date(now).toISOString();
  let next: DomainData;
  if (svc.dns.server) {
    // Looked up by prepareCheck for this domain; missing only if the domain was replaced meanwhile
    // (deleted and created again): the check cannot say, as when DNS is down.
    if (!opts.propagated) throw new HttpError(503, DNS_UNAVAILABLE);
    const seen = new Set(opts.propagated);
    const valid = dnsRecords(d).every((r) => !r.required || seen.has(propagationKey(r)));
    next = { ...d, dns_valid: valid, dns_propagated: opts.propagated, last_dns_check_at: checked_at };
  } else {
    const { dns_propagated: _stale, ...flagOnly } = d;
    next = { ...flagOnly, dns_valid: d.world_verified, last_dns_check_at: checked_at };
  }
  svc.objects.update(d.id, next);
  return next;
}

/** check-dns's lookups, before its transaction: none when there is no DNS server or the cache answers. */
async function prepareCheck(ctx: Ctx): Promise<{ domainId: string; propagated: string[] } | undefined> {
  const server = ctx.svc.dns.server;
  const d = findDomain(ctx.svc, ctx.account.id, ctx.params.domain!);
  // An unknown domain is the handler's 404.
  if (!server || !d || cached(ctx.svc, d, ctx.now)) return undefined;
  return { domainId: d.id, propagated: await resolvePropagated(server, dnsRecords(d)) };
}

function checkDomainDns(ctx: Ctx) {
  const d = target(ctx);
  const prepared = ctx.prepared as Awaited<ReturnType<typeof prepareCheck>>;
  const propagated = prepared?.domainId === d.id ? prepared.propagated : undefined;
  return ok(domainRecord(checkDns(ctx.svc, d, ctx.now, { propagated })));
}

/** Control surface: flips the world's DNS state; `apply` also records a check at once. */
export function setVerified(svc: Services, accountId: string, name: string, verified: boolean, apply: boolean): Domain {
  if (svc.dns.server) {
    throw conflict(
      `this emulator resolves DNS through ${svc.dns.server} (--dns-server): publish the domain's records ` +
        "there instead of setting the verification flag",
    );
  }
  return svc.db.tx(() => {
    const d = findDomain(svc, accountId, name);
    if (!d) throw notFound("domain not found");
    const next = { ...d, world_verified: verified };
    svc.objects.update(d.id, next);
    return domainRecord(apply ? checkDns(svc, next, svc.clock.now(), { force: true }) : next);
  });
}

export const domains: EmulatedEndpoints = {
  listDomains: { scope: { fixed: "domains:read" }, query: [...PAGE_QUERY, "dns_valid"], handler: list },
  createDomain: { scope: { fixed: "domains:write" }, idempotent: "plain", handler: create },
  getDomain: { scope: { fixed: "domains:read" }, handler: (ctx) => ok(domainRecord(target(ctx))) },
  updateDomain: { scope: { fixed: "domains:write" }, handler: update },
  deleteDomain: { scope: { family: "domains", verb: "delete" }, handler: remove },
  checkDomainDns: {
    scope: { fixed: "domains:write" },
    body: "none",
    prepare: prepareCheck,
    handler: checkDomainDns,
  },
};
