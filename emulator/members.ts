// Users and account membership. The rule "a caller cannot remove itself and nobody can remove the
// account owner" (docs/contract/endpoints/members.md#removal-restrictions) needs to know who the owner is and whom a key acts for; the emulator's model:
// - a user is global, one per email address (the same person in two accounts has one user_id);
// - every account has an owner, a member with role Administrator: the parent account's is a
//   synthetic `owner@<website>` user made at bootstrap; a sub account is owned by the user the
//   creating key acts for (the parent's organisation owns what it creates);
// - an API key acts for the user who created it: the root key for the parent's owner, any key for
//   the user of the key that created it (emulator-internal `user_id`, never in a record).
import type { MemberRole } from "../provider/api";
import { uuid } from "./crypto";
import type { Objects } from "./store/objects";

export interface UserData {
  id: string;
  email: string;
}

export interface MemberData {
  user_id: string;
  account_id: string;
  role: MemberRole;
  created_at: string;
  updated_at: string;
  /** Not in the record (docs/contract/endpoints/members.md#records: the member's email is not part of it); kept for uniqueness. */
  email: string;
  name: string | null;
}

/** The stored row id of a membership (one per account and user). */
export const memberRowId = (accountId: string, userId: string) => `${accountId}:${userId}`;

export const normalEmail = (email: string) => email.trim().toLowerCase();

/** The user with this email, created on first sight. */
export function userFor(objects: Objects, email: string): UserData {
  const e = normalEmail(email);
  const row = objects.byLookup<UserData>("user", `email:${e}`);
  if (row) return row.data;
  const u: UserData = { id: uuid(), email: e };
  objects.insert("user", u.id, null, u, null, `email:${e}`);
  return u;
}

export function addMembership(
  objects: Objects,
  accountId: string,
  user: UserData,
  role: MemberRole,
  name: string | null,
  now: string,
): MemberData {
  const m: MemberData = {
    user_id: user.id,
    account_id: accountId,
    role,
    created_at: now,
    updated_at: now,
    email: user.email,
    name,
  };
  objects.insert("member", memberRowId(accountId, user.id), accountId, m, user.email);
  return m;
}

export function memberRecord(m: MemberData) {
  const { email: _e, name: _n, ...record } = m;
  return record;
}
