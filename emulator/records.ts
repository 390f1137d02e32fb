// Stored shapes of accounts and keys, and the response records built from them (they satisfy the
// record schemas of provider/api).
import type { ApiKey, SubAccount } from "../provider/api";
import { randomChars, uuid } from "./crypto";

export type AccountStatus = "active" | "suspended" | "parent-suspended" | "deleted";

export interface AccountData {
  id: string;
  parent_account_id: string | null;
  name: string;
  website: string;
  status: AccountStatus;
  monthly_credit: number;
  created_at: string;
  updated_at: string;
  last_activity_at: string | null;
  suspend_reason: string | null;
  deleted_at: string | null;
  /** Epoch ms of deletion (usage attribution to removed_sub_accounts). */
  deleted_ms?: number | null;
  /** The user who owns the account (members.ts): nobody can remove them. */
  owner_user_id?: string;
}

/** A new account's stored shape: created and updated `now`, never active, suspended or deleted. */
export function newAccountData(
  now: string,
  account: Pick<AccountData, "id" | "parent_account_id" | "name" | "website" | "status" | "monthly_credit">,
): AccountData {
  return {
    id: account.id,
    parent_account_id: account.parent_account_id,
    name: account.name,
    website: account.website,
    status: account.status,
    monthly_credit: account.monthly_credit,
    created_at: now,
    updated_at: now,
    last_activity_at: null,
    suspend_reason: null,
    deleted_at: null,
    deleted_ms: null,
  };
}

/**
 * `user_id`: the user the key acts for (emulator-internal, never in a record). A caller cannot remove
 * itself from an account (docs/contract/endpoints/members.md#removal-restrictions): with an API key, "itself" is this user.
 */
export type KeyData = ApiKey & { scopes: string[]; user_id?: string };

/** A new key's stored shape: a fresh id and public key, created and updated `now`, never used. */
export function newKeyData(
  now: string,
  key: Pick<KeyData, "account_id" | "label" | "scopes" | "ip_allow_list" | "user_id">,
): KeyData {
  return {
    object: "api_key",
    id: uuid(),
    created_at: now,
    updated_at: now,
    last_used_at: null,
    account_id: key.account_id,
    label: key.label,
    public_key: `txm-pk-${randomChars(32)}`,
    scopes: key.scopes,
    ip_allow_list: key.ip_allow_list,
    user_id: key.user_id,
  };
}

export function subAccountRecord(a: AccountData, domainCount: number, memberCount: number): SubAccount {
  return {
    object: "sub_account",
    id: a.id,
    parent_account_id: a.parent_account_id!,
    name: a.name,
    website: a.website,
    status: a.status,
    monthly_credit: a.monthly_credit,
    created_at: a.created_at,
    domain_count: domainCount,
    member_count: memberCount,
    last_activity_at: a.last_activity_at,
  };
}

export const keyRecord = (k: KeyData): ApiKey => {
  const { user_id: _user, ...record } = k;
  return record;
};
