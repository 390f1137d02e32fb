// Sweepers: remove what runs left behind — only objects a run created. In the account the
// environment names, that is sub accounts whose name and API keys whose label start with the
// prefix; inside such a sub account everything is a run's (the run created the account), apart from
// the members the service will not remove (its owner).
import { z } from "zod";
import { ApiKeyWithSecret, paths } from "../provider/api";
import { KIND_FACTS, OBJECT_KINDS as KINDS, type KindFacts, type ObjectKind as Kind } from "../provider/api/kinds";
import { createClient, type TxmailClient } from "../provider/client";
import { TxmailApiError } from "../provider/client/errors";
import { keysToCamel } from "../provider/core/casing";
import type { Connection } from "../provider/core/connection";
import { listedTitle } from "../provider/core/operations/names";
import type { AnyDeclaration, Props } from "../provider/core/spec";
import { declarations } from "../provider/resources";

const fact = (kind: Kind, name: keyof KindFacts) => (KIND_FACTS[kind] as KindFacts)[name] === true;

/** The kind that holds the others: a run's objects live in sub accounts it created. */
const CONTAINER: Kind = "SubAccount";

/**
 * What holds a kind, from its declaration and its contract facts: a kind listed under a sub
 * account (`listing.subAccountInput`) is the sub account's; a managed kind lives inside the sub
 * account and is managed with one of its keys, so it goes before both.
 */
export function parentsOf(kind: Kind): Kind[] {
  const holdsKeys = (k: Kind) => {
    const listing = declarations[k].listing;
    return listing.listed && listing.subAccountInput !== undefined;
  };
  if (holdsKeys(kind)) return [CONTAINER];
  if (fact(kind, "managed")) return [CONTAINER, ...KINDS.filter(holdsKeys)];
  return [];
}

/**
 * Every kind in the order the sweep deletes it: each before the kinds that hold it (a topological
 * order of `parentsOf`), and otherwise in reverse reading order (provider/api/kinds.ts).
 */
export const DELETION_ORDER: readonly Kind[] = (() => {
  const order: Kind[] = [];
  const left = [...KINDS].reverse();
  while (left.length > 0) {
    // The first kind none of whose children is left.
    const next = left.findIndex((k) => !left.some((child) => parentsOf(child).includes(k)));
    if (next < 0) throw new Error(`the kinds' parents form a cycle: ${left.join(", ")}`);
    order.push(...left.splice(next, 1));
  }
  return order;
})();

/** The kinds inside a sub account, in deletion order: emptied before it is deleted. */
const INSIDE = DELETION_ORDER.filter((k) => parentsOf(k).includes(CONTAINER));
/** The kinds a sub account's own key manages inside it (the rest its parent reaches by path). */
const MANAGED = INSIDE.filter((k) => fact(k, "managed"));

/** What a key needs to empty a sub account: to list and delete each managed kind (the wide form). */
export const SWEEPER_SCOPES: readonly string[] = MANAGED.flatMap((k) => [
  declarations[k].scopes.read({})[0]!,
  declarations[k].scopes.delete({})[0]!,
]);

export interface Account {
  client: TxmailClient;
  accountId: string;
  baseUrl: string;
}

/** Objects removed, by kind. */
export type Removed = Record<string, number>;

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const count = (removed: Removed, kind: string) => (removed[kind] = (removed[kind] ?? 0) + 1);

/** A key of a sub account, made by the parent (label `<label>`), with `scopes`. */
export async function subAccountKey(parent: Account, subId: string, label: string, scopes: string[]) {
  const { data } = await parent.client.post(
    paths.subAccountApiKeys(parent.accountId, subId),
    { label, scopes },
    ApiKeyWithSecret,
  );
  const client = createClient({ apiKey: data.secret_key, accountId: subId, baseUrl: parent.baseUrl, rateLimit: false });
  return { id: data.id, secret: data.secret_key, account: { client, accountId: subId, baseUrl: parent.baseUrl } };
}

/** Where a kind's objects are: the client that reaches them, and the props their paths take. */
interface Place {
  account: Account;
  props: Props;
}

/** The live objects of a kind at a place (a kind with no paginated list: its one unpaginated page). */
async function objectsOf(declaration: AnyDeclaration, at: Place): Promise<Array<Record<string, unknown>>> {
  const conn = { accountId: at.account.accountId } as Connection;
  const collection = declaration.collectionPath(conn, at.props);
  const listing = declaration.listing;
  if (!listing.listed) {
    return (await at.account.client.get(collection, z.object({ data: z.array(declaration.record) }))).data;
  }
  const now = Date.now();
  const listed = await collect(at.account.client.list(collection, declaration.record));
  return listed.filter((r) => listing.live?.(r, now) ?? true);
}

/**
 * Deletes one object; false when the service keeps it for a reason the declaration names
 * (`forbiddenAlso.delete`: a sub account's owner is no run's to remove).
 */
async function remove(declaration: AnyDeclaration, at: Place, record: Record<string, unknown>): Promise<boolean> {
  const conn = { accountId: at.account.accountId } as Connection;
  const id = declaration.idOf?.(record) ?? String(record.id);
  try {
    await at.account.client.delete(declaration.itemPath(conn, { ...keysToCamel(record), ...at.props }, id));
    return true;
  } catch (e) {
    if (declaration.forbiddenAlso?.delete && e instanceof TxmailApiError && e.status === 403) return false;
    throw e;
  }
}

const titleOf = (declaration: AnyDeclaration, record: Record<string, unknown>) =>
  declaration.listing.listed ? listedTitle(declaration, declaration.listing)(record) : "";

/**
 * Deletes every object inside a sub account a run created, kind by kind in deletion order: the
 * managed kinds with the sweeper's key, the rest through the parent. Not the sweeper's key, and a
 * key labelled `label` is the runner's own: removed, not counted.
 */
async function empty(parent: Account, subId: string, label: string, removed: Removed): Promise<void> {
  const sweeper = await subAccountKey(parent, subId, `${label}-sweeper`, [...SWEEPER_SCOPES]);
  for (const kind of INSIDE) {
    const declaration = declarations[kind];
    const listing = declaration.listing;
    const at: Place =
      listing.listed && listing.subAccountInput
        ? { account: parent, props: { [listing.subAccountInput]: subId } }
        : { account: sweeper.account, props: {} };
    for (const record of await objectsOf(declaration, at)) {
      if ((declaration.idOf?.(record) ?? record.id) === sweeper.id) continue;
      if (!(await remove(declaration, at, record))) continue;
      const runners = fact(kind, "key") && titleOf(declaration, record).startsWith(label);
      if (!runners) count(removed, kind);
    }
  }
}

/**
 * Removes every object whose title starts with `prefix` (an API key's label, a sub account's name),
 * sub accounts with everything inside them, in deletion order. `label` names the temporary
 * sweeper keys.
 */
export async function sweep(parent: Account, prefix: string, label: string): Promise<Removed> {
  const removed: Removed = {};
  const at: Place = { account: parent, props: {} };
  for (const kind of DELETION_ORDER.filter((k) => parentsOf(k).length === 0)) {
    const declaration = declarations[kind];
    for (const record of await objectsOf(declaration, at)) {
      if (!titleOf(declaration, record).startsWith(prefix)) continue;
      if (kind === CONTAINER) await empty(parent, String(record.id), label, removed);
      if (await remove(declaration, at, record)) count(removed, kind);
    }
  }
  return removed;
}

export const total = (r: Removed) => Object.values(r).reduce((n, x) => n + x, 0);
