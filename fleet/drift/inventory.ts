// The inventory: objects at the service that no shard stack manages. Each kind's collection is
// listed once per sub account (the kind's declaration says where: `collectionPath`, `listing`), with
// the key that may list it — a sub account's own objects with its tenant's bootstrap key, its keys
// and the account's sub accounts and keys with the fleet's (parent) key — and compared with the ids
// the shard stacks record. Reads only. A family a key may not list is reported as not listed, with
// the scope that would let it, never guessed.
import type { ViolationInfo } from "../../policy/lib/report";
import { z } from "zod";
import type { ResourceValidationArgs } from "@pulumi/policy";
import { OBJECT_KINDS, type Kind, type ObjectKind, kindsWith } from "../../provider/api/kinds";
import { nativeTypeToken } from "../../provider/api/typeTokens";
import { MemberList } from "../../provider/api/member";
import { errorCategory } from "../../provider/core/api";
import type { Api } from "../../provider/core/api";
import type { Connection } from "../../provider/core/connection";
import { uuidImportId } from "../../provider/core/importId";
import { listedTitle } from "../../provider/core/operations/names";
import { declarations } from "../../provider/resources";
import { policies } from "../../policy/policies";
import type { NotListed, UnmanagedObject } from "./types";

/** What the inventory asks of the service (the provider's client, or a fake in unit tests). */
export type ListSource = Pick<Api, "list" | "get">;

export interface Listing {
  unmanaged: UnmanagedObject[];
  notListed: NotListed[];
  /** Listings made: one per kind per account (one per domain for a domain-scoped key); a listing of several pages counts once. */
  listCalls: number;
}

/** The kinds that live inside a sub account and are listed with its own key. */
export const SUB_ACCOUNT_KINDS: readonly Kind[] = kindsWith("managed").filter((kind) =>
  OBJECT_KINDS.includes(kind as ObjectKind),
);

/** Lists the kinds of `accountId` with `source` and reports what `managed` (kind:id) lacks. */
export async function listUnmanaged(
  source: ListSource,
  where: {
    accountId: string;
    kinds: readonly Kind[];
    /** Props naming the place (e.g. `subAccountId` for a sub account's keys). */
    props?: Record<string, unknown>;
    tenant?: string;
    /** A member made with the account (its owner, whom nobody can remove): not an object of anyone's. */
    ownerSince?: string;
    /** The account's domains, for keys whose read scopes name domains. */
    domains?: readonly string[];
    /** The listing key's scopes when known: families it may not read are not asked for. */
    keyScopes?: readonly string[];
    now?: number;
  },
  managed: ReadonlySet<string>,
): Promise<Listing> {
  const out: Listing = { unmanaged: [], notListed: [], listCalls: 0 };
  const conn = { accountId: where.accountId } as Connection;
  for (const kind of where.kinds) {
    const d = declarations[kind];
    const path = d.collectionPath(conn, where.props ?? {});
    const tenant = where.tenant ? { tenant: where.tenant } : {};
    const listed = await listKind(source, kind, path, where, out);
    if (!listed) continue;
    const { records, partial } = listed;
    if (partial) out.notListed.push({ ...tenant, kind, reason: partial });
    const listing = d.listing;
    for (const record of records) {
      if (listing.listed && listing.live && !listing.live(record, where.now ?? Date.now())) continue;
      const id = d.idOf ? d.idOf(record) : String(record.id);
      if (managed.has(`${kind}:${id}`)) continue;
      out.unmanaged.push(unmanagedObject(kind, id, record, where.tenant));
    }
  }
  return out;
}

/**
 * A kind's records in one account, or undefined (with the reason in `out.notListed`) when the key
 * may not list them; `partial` says what a key whose read scopes name domains leaves out.
 */
async function listKind(
  source: ListSource,
  kind: Kind,
  path: string,
  where: { tenant?: string; ownerSince?: string; domains?: readonly string[]; keyScopes?: readonly string[] },
  out: Listing,
): Promise<{ records: Record<string, unknown>[]; partial?: string } | undefined> {
  const d = declarations[kind];
  const tenant = where.tenant ? { tenant: where.tenant } : {};
  const wide = d.scopes.read({})[0]!;
  // Known scopes decide without asking: no request for a family the key may not read.
  const reach = where.keyScopes ? readReach(wide, where.keyScopes) : "all";
  if (reach === "none") {
    out.notListed.push({ ...tenant, kind, reason: `the key may not list them (needs ${wide})` });
    return undefined;
  }
  let domains: readonly string[] | undefined = reach === "all" ? undefined : reach.domains;
  if (domains === undefined) {
    try {
      out.listCalls++;
      if (kind === "AccountMember") return { records: await members(source, path, where.ownerSince) };
      return { records: await all(source, path, d.record) };
    } catch (err) {
      if (!domainScoped(err) || !where.domains?.length) {
        out.notListed.push({ ...tenant, kind, reason: notListedReason(kind, err) });
        return undefined;
      }
      domains = where.domains;
    }
  }
  const listedDomains = domains;
  // A key with `{domain}` read scopes lists one domain at a time, and sees nothing else.
  const records: Record<string, unknown>[] = [];
  try {
    for (const domain of listedDomains) {
      out.listCalls++;
      records.push(...(await all(source, path, d.record, { domain })));
    }
  } catch (err) {
    out.notListed.push({ ...tenant, kind, reason: notListedReason(kind, err) });
    return undefined;
  }
  return {
    records,
    partial: `only those of ${listedDomains.join(", ")} listed (the key's scopes name domains; ${wide} would list all)`,
  };
}

/**
 * What a key with `scopes` may list of a family whose wide read scope is `wide`: all of it, only
 * the objects of some domains (`routes:read:mail.example.com`), or nothing.
 */
export function readReach(wide: string, scopes: readonly string[]): "all" | "none" | { domains: string[] } {
  if (scopes.includes(wide)) return "all";
  if (!wide.endsWith(":all")) return "none";
  const prefix = wide.slice(0, -"all".length);
  const domains = scopes.filter((s) => s.startsWith(prefix)).map((s) => s.slice(prefix.length));
  return domains.length > 0 ? { domains } : "none";
}

async function all(
  source: ListSource,
  path: string,
  schema: z.ZodType,
  query?: Record<string, string>,
): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  for await (const r of source.list(path, schema, query)) records.push(r as Record<string, unknown>);
  return records;
}

/** The service's answer to a key whose read scopes name domains listing without `?domain=`. */
const domainScoped = (err: unknown) =>
  errorCategory(err) === "validation" && /domain-scoped/.test(err instanceof Error ? err.message : "");

/**
 * An account's members but its owner. The public record does not say who owns the account; the
 * owner's membership is the one the service made with the account (docs/guide/fleets.md#drift).
 */
async function members(source: ListSource, path: string, ownerSince?: string): Promise<Record<string, unknown>[]> {
  const { data } = await source.get(path, MemberList);
  return data.filter((m) => ownerSince === undefined || Date.parse(m.created_at) !== Date.parse(ownerSince));
}

function notListedReason(kind: Kind, err: unknown): string {
  const category = errorCategory(err);
  if (category === "forbidden") {
    return `the key may not list them (needs ${declarations[kind].scopes.read({})[0]})`;
  }
  if (category === "not-found") return "the account has no such collection";
  return `listing failed: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`;
}

function unmanagedObject(kind: Kind, id: string, record: Record<string, unknown>, tenant?: string): UnmanagedObject {
  const d = declarations[kind];
  const title = d.listing.listed ? listedTitle(d, d.listing)(record) : id;
  const importId = (d.importId ?? uuidImportId).format(record);
  const name = [tenant, title]
    .filter(Boolean)
    .join("-")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const policy = refusals(kind, record);
  return {
    kind,
    ...(tenant ? { tenant } : {}),
    id,
    title,
    importLine: `pulumi import ${nativeTypeToken(kind)} ${name || kind.toLowerCase()} ${importId}`,
    ...(policy ? { policy } : {}),
  };
}

/**
 * What the policy pack's mandatory rules would refuse in the object as the service holds it (e.g. a
 * key made by hand that allows every address), joined; undefined when they pass.
 */
function refusals(kind: Kind, record: Record<string, unknown>): string | undefined {
  const props = Object.fromEntries(Object.entries(record).map(([k, v]) => [camel(k), v]));
  // What the rules read besides the props: their settings (policy/lib/config.ts; here, their
  // defaults) and the resource's URN (where a fix is written): an object no stack holds has none,
  // so one of no stack and no parent.
  const type = nativeTypeToken(kind);
  const name = String(record.label ?? record.name ?? record.id);
  const args = { type, name, props, urn: `urn:pulumi:::${type}::${name}`, getConfig: () => ({}) };
  const found: string[] = [];
  for (const policy of policies) {
    if (!("validateResource" in policy) || policy.enforcementLevel !== "mandatory") continue;
    const validations = [policy.validateResource].flat();
    for (const validate of validations) {
      if (!validate) continue;
      // A finding the rule lowers to advisory (policy/lib/report.ts) is no refusal.
      void validate(args as unknown as ResourceValidationArgs, (finding: string | ViolationInfo) => {
        if (typeof finding === "string") found.push(`${policy.name} (mandatory): ${finding}`);
      });
    }
  }
  return found.length > 0 ? found.join("; ") : undefined;
}

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
