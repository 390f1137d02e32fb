// The parent account and its root API key (label "root", every fixed scope): created on first
// start, reloaded afterwards. The root secret is kept sealed (AES-GCM, server secret) in the store
// so a restart without --api-key keeps the same key; a deleted root key is re-created on restart.
import { FIXED_SCOPES } from "../provider/api/scopes";
import type { Services } from "./context";
import { SECRET_KEY_FORMAT, newSecretKey, sha256, uuid } from "./crypto";
import { type AccountData, type KeyData, newAccountData, newKeyData } from "./records";
import { addMembership, userFor } from "./members";
import { UUID_RE } from "./validate";

export interface Bootstrap {
  accountId: string;
  apiKey: string;
}

export function bootstrap(
  svc: Omit<Services, "parentAccountId" | "dns">,
  opts: { accountId?: string; apiKey?: string },
): Bootstrap {
  const { db, objects, sealer, clock } = svc;
  if (opts.accountId !== undefined && !UUID_RE.test(opts.accountId))
    throw new Error("accountId must be a lower-case uuid");
  if (opts.apiKey !== undefined && !SECRET_KEY_FORMAT.test(opts.apiKey)) {
    throw new Error("apiKey must look like <prefix>-sk-<64 letters and digits>");
  }
  return db.tx(() => {
    const now = clock.iso();
    let accountId = db.getMeta("parent_account_id");
    if (accountId && opts.accountId && opts.accountId !== accountId) {
      throw new Error(`the data dir holds parent account ${accountId}, not ${opts.accountId}`);
    }
    if (!accountId) {
      accountId = opts.accountId ?? uuid();
      const a = newAccountData(now, {
        id: accountId,
        parent_account_id: null,
        name: "Emulator parent account",
        website: "example.com",
        status: "active",
        monthly_credit: 0,
      });
      objects.insert("account", accountId, null, a);
      db.setMeta("parent_account_id", accountId);
    }
    const ownerId = ensureOwner(svc, accountId, now);
    const sealed = db.getMeta("root_key");
    const apiKey = opts.apiKey ?? (sealed ? sealer.open(sealed, "root_key") : newSecretKey());
    if (!objects.byLookup<KeyData>("api_key", sha256(apiKey))) {
      const k = newKeyData(now, {
        account_id: accountId,
        label: "root",
        scopes: [...FIXED_SCOPES],
        ip_allow_list: [],
        user_id: ownerId,
      });
      objects.insert("api_key", k.id, accountId, k, null, sha256(apiKey));
    }
    db.setMeta("root_key", sealer.seal(apiKey, "root_key"));
    return { accountId, apiKey };
  });
}

/** The parent account's owner: a synthetic `owner@<website>` user and its Administrator membership. */
function ensureOwner(svc: Omit<Services, "parentAccountId" | "dns">, accountId: string, now: string): string {
  const row = svc.objects.get<AccountData>("account", accountId)!;
  if (row.data.owner_user_id) return row.data.owner_user_id;
  const owner = userFor(svc.objects, `owner@${row.data.website}`);
  addMembership(svc.objects, accountId, owner, "Administrator", "Account owner", now);
  svc.objects.update(accountId, { ...row.data, owner_user_id: owner.id });
  return owner.id;
}
