// API keys of the account (`/api-keys`) and of its sub accounts (`/sub-accounts/{id}/api-keys`):
// one record, one implementation; the owner differs.
import { ApiKey, CreateApiKey, CreateApiKeyForm, UpdateApiKey } from "../../provider/api";
import { listAdmits } from "../allowList";
import type { Ctx, EmulatedEndpoints, Endpoint } from "../context";
import { newSecretKey, sha256 } from "../crypto";
import { conflict, notFound, badRequest } from "../http/errors";
import { PAGE_QUERY, listPage } from "../pagination";
import { type AccountData, type KeyData, keyRecord, newKeyData } from "../records";
import { parseBody, uuidParam } from "../validate";
import { allowList, created, ok, ownedObject, sameList, scopes } from "./common";

/** What this file stores (API keys, the account's and its sub accounts'): a row's type and its section of the state dump (emulator/store/objects.ts). */
export const STORED = { api_key: "api_keys" } as const;

const KEYS_OF_SUB =
  "sub-account keys cannot manage API keys; a parent-account key with sub-account-api-keys:* scopes manages a sub account's keys";
const NESTED = "sub-account keys cannot manage sub accounts or their API keys";

/** The account whose keys the path names: the caller's own, or one of its live sub accounts. */
function owner(ctx: Ctx): AccountData {
  const subId = ctx.params.sub_account_id;
  if (subId === undefined) return ctx.account;
  uuidParam("sub_account_id", subId);
  const sub = ctx.svc.objects.get<AccountData>("account", subId);
  if (!sub || sub.data.parent_account_id !== ctx.account.id || sub.data.status === "deleted") {
    throw notFound("sub account not found");
  }
  return sub.data;
}

const target = (ctx: Ctx, acct: AccountData): KeyData => ownedObject(ctx, "api_key", "key_id", "api key", acct.id);

function list(ctx: Ctx) {
  const acct = owner(ctx);
  return ok(listPage<KeyData, ApiKey>(ctx.svc.objects, "api_key", acct.id, ctx.query, (r) => keyRecord(r.data)));
}

function create(ctx: Ctx) {
  const acct = owner(ctx);
  const b = parseBody(CreateApiKey, ctx.json());
  const sc = scopes(b.scopes, acct.parent_account_id !== null);
  const ips = allowList(b.ip_allow_list ?? CreateApiKeyForm.defaults.ip_allow_list);
  const secret = newSecretKey();
  const now = ctx.iso();
  const key = newKeyData(now, {
    account_id: acct.id,
    label: b.label,
    scopes: sc,
    ip_allow_list: ips,
    user_id: ctx.key.user_id,
  });
  ctx.svc.objects.insert("api_key", key.id, acct.id, key, null, sha256(secret));
  return created({ ...keyRecord(key), secret_key: secret });
}

function get(ctx: Ctx) {
  return ok(keyRecord(target(ctx, owner(ctx))));
}

function update(ctx: Ctx) {
  const acct = owner(ctx);
  const key = target(ctx, acct);
  const b = parseBody(UpdateApiKey, ctx.json());
  if (b.label == null && b.scopes == null && b.ip_allow_list == null) {
    throw badRequest(
      "update must set at least one of label, scopes, ip_allow_list (omitted and null fields stay unchanged)",
    );
  }
  const next: KeyData = { ...key };
  if (b.label != null) next.label = b.label;
  if (b.scopes != null) next.scopes = scopes(b.scopes, acct.parent_account_id !== null);
  if (b.ip_allow_list != null) next.ip_allow_list = allowList(b.ip_allow_list);
  if (
    next.label === key.label &&
    sameList(next.scopes, key.scopes) &&
    sameList(next.ip_allow_list, key.ip_allow_list)
  ) {
    throw badRequest("update changes nothing: every given value equals the stored one (send only what changed)");
  }
  // Allow-list rule 7 (docs/contract/allow-lists.md#rule-7): a key may not lock itself out; a parent updating a sub-account key may.
  if (key.id === ctx.key.id && !listAdmits(next.ip_allow_list, ctx.clientIp)) {
    throw conflict(
      `self-lockout: the new ip_allow_list would exclude the calling client IP ${ctx.clientIp}; add it or update from another key`,
    );
  }
  next.updated_at = ctx.iso();
  ctx.svc.objects.update(key.id, next);
  return ok(keyRecord(next));
}

function remove(ctx: Ctx) {
  const key = target(ctx, owner(ctx));
  ctx.svc.objects.delete(key.id);
  return ok({ message: `api key ${key.id} (${key.label}) deleted successfully` });
}

/**
 * The five endpoints of one key family: the caller's own keys (`api-keys:*`) or a sub account's
 * keys by its id (`sub-account-api-keys:*`), the same handlers behind their own scopes.
 */
function keyEndpoints(family: "api-keys" | "sub-account-api-keys", parentOnly: string) {
  return {
    list: { scope: { fixed: `${family}:read` }, parentOnly, query: PAGE_QUERY, handler: list },
    create: { scope: { fixed: `${family}:write` }, parentOnly, idempotent: "secret", handler: create },
    get: { scope: { fixed: `${family}:read` }, parentOnly, handler: get },
    update: { scope: { fixed: `${family}:write` }, parentOnly, handler: update },
    remove: { scope: { fixed: `${family}:delete` }, parentOnly, handler: remove },
  } satisfies Record<string, Endpoint>;
}

const own = keyEndpoints("api-keys", KEYS_OF_SUB);
const subAccounts = keyEndpoints("sub-account-api-keys", NESTED);

export const apiKeys: EmulatedEndpoints = {
  listApiKeys: own.list,
  createApiKey: own.create,
  getApiKey: own.get,
  updateApiKey: own.update,
  deleteApiKey: own.remove,
  listSubAccountApiKeys: subAccounts.list,
  createSubAccountApiKey: subAccounts.create,
  getSubAccountApiKey: subAccounts.get,
  updateSubAccountApiKey: subAccounts.update,
  deleteSubAccountApiKey: subAccounts.remove,
};
