// Sweepers: remove what runs left behind — only objects a run created. In the account the
// environment names, that is sub accounts whose name and API keys whose label start with the
// prefix; inside such a sub account everything is a run's (the run created the account), apart from
// the members the service will not remove (its owner).
import {
  ApiKey,
  ApiKeyWithSecret,
  Domain,
  MemberList,
  Route,
  SmtpCredential,
  SubAccount,
  Suppression,
  Webhook,
  paths,
} from "../provider/api";
import { createClient, type TxmailClient } from "../provider/client";
import { TxmailApiError } from "../provider/client/errors";

/** What a key needs to empty a sub account. */
const SWEEPER_SCOPES = [
  "domains:read",
  "domains:delete:all",
  "routes:read:all",
  "routes:delete:all",
  "webhooks:read:all",
  "webhooks:delete:all",
  "smtp-credentials:read:all",
  "smtp-credentials:delete:all",
  "suppressions:read",
  "suppressions:wipe",
  "accounts:members:read",
  "accounts:members:remove",
];

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

/** Deletes every object inside a sub account a run created (not the account itself). */
async function empty(sub: Account, removed: Removed): Promise<void> {
  const { client, accountId: a } = sub;
  for (const r of await collect(client.list(paths.routes(a), Route))) {
    await client.delete(paths.route(a, r.id));
    count(removed, "Route");
  }
  for (const w of await collect(client.list(paths.webhooks(a), Webhook))) {
    await client.delete(paths.webhook(a, w.id));
    count(removed, "Webhook");
  }
  for (const s of await collect(client.list(paths.smtpCredentials(a), SmtpCredential))) {
    await client.delete(paths.smtpCredential(a, s.id));
    count(removed, "SmtpCredential");
  }
  for (const d of await collect(client.list(paths.domains(a), Domain))) {
    await client.delete(paths.domain(a, d.domain));
    count(removed, "Domain");
  }
  const suppressions = await collect(client.list(paths.suppressions(a), Suppression));
  if (suppressions.length > 0) {
    await client.delete(paths.suppressionsAll(a));
    for (const _ of suppressions) count(removed, "Suppression");
  }
  for (const m of (await client.get(paths.members(a), MemberList)).data) {
    try {
      await client.delete(paths.member(a, m.user_id));
      count(removed, "AccountMember");
    } catch (e) {
      // The owner (and the caller) cannot be removed: 403. They are the account's, not the run's.
      if (!(e instanceof TxmailApiError && e.status === 403)) throw e;
    }
  }
}

/**
 * Removes every object whose name starts with `prefix`: the parent's API keys so labelled, and sub
 * accounts so named with everything inside them. `label` names the temporary sweeper keys.
 */
export async function sweep(parent: Account, prefix: string, label: string): Promise<Removed> {
  const { client, accountId: a } = parent;
  const removed: Removed = {};
  for (const k of await collect(client.list(paths.apiKeys(a), ApiKey))) {
    if (!k.label.startsWith(prefix)) continue;
    await client.delete(paths.apiKey(a, k.id));
    count(removed, "ApiKey");
  }
  for (const s of await collect(client.list(paths.subAccounts(a), SubAccount))) {
    if (!s.name.startsWith(prefix) || s.status === "deleted") continue;
    const sweeper = await subAccountKey(parent, s.id, `${label}-sweeper`, SWEEPER_SCOPES);
    await empty(sweeper.account, removed);
    for (const k of await collect(client.list(paths.subAccountApiKeys(a, s.id), ApiKey))) {
      if (k.id === sweeper.id) continue;
      await client.delete(paths.subAccountApiKey(a, s.id, k.id));
      if (!k.label.startsWith(label)) count(removed, "SubAccountApiKey");
    }
    await client.delete(paths.subAccount(a, s.id));
    count(removed, "SubAccount");
  }
  return removed;
}

export const total = (r: Removed) => Object.values(r).reduce((n, x) => n + x, 0);
