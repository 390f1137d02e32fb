// Authentication (docs/contract/authentication.md): Bearer keys `<prefix>-sk-<64 characters>`, looked up by
// SHA-256; the key's IP allow list; the account in the path; suspended and deleted accounts.
//
// Account states, as the emulator reads them:
// - deleted sub account: its keys are revoked with it, so they get 401;
// - suspended / parent-suspended sub account, or a suspended parent account (and every sub account
//   under it): reads (GET, ping) still work, every write is a 403 naming the suspension.
import { ipAllowed } from "./allowList";
import type { Ctx } from "./context";
import { SECRET_KEY_FORMAT, sha256 } from "./crypto";
import { forbidden, notFound, unauthorized } from "./http/errors";
import type { AccountData, KeyData } from "./records";
import { UUID_RE } from "./validate";
import { badRequest } from "./http/errors";

/** last_used_at is written at most once a minute per key (a write per GET would dominate). */
const LAST_USED_GRANULARITY_MS = 60_000;

export function authenticate(ctx: Ctx, authorization: string | undefined): void {
  const m = /^Bearer ([^\s]+)$/.exec(authorization ?? "");
  if (!m) throw unauthorized(authorization ? "Invalid API key" : "missing Authorization: Bearer <API key> header");
  const token = m[1]!;
  if (!SECRET_KEY_FORMAT.test(token)) throw unauthorized();
  const { objects, db } = ctx.svc;
  const row = objects.byLookup<KeyData>("api_key", sha256(token));
  if (!row) throw unauthorized();
  const key = row.data;
  const acct = objects.get<AccountData>("account", key.account_id);
  if (!acct || acct.data.status === "deleted") throw unauthorized();

  // Authentication rule 7 / allow-list rule 6 (docs/contract/authentication.md#rule-7): before scopes, idempotency and everything else.
  if (!ipAllowed(key.id, key.ip_allow_list, ctx.clientIp)) {
    throw forbidden(`client IP ${ctx.clientIp} is not in this API key's ip_allow_list`);
  }
  ctx.key = key;
  ctx.account = acct.data;

  const last = key.last_used_at ? Date.parse(key.last_used_at) : 0;
  if (ctx.now - last >= LAST_USED_GRANULARITY_MS) {
    key.last_used_at = ctx.iso();
    db.tx(() => objects.update(key.id, key));
  }
}

/** `{account_id}` must be the key's own account (the parent, for sub-account operations). */
export function checkAccountParam(ctx: Ctx): void {
  const id = ctx.params.account_id;
  if (id === undefined) return;
  if (!UUID_RE.test(id)) throw badRequest("account_id must be a uuid");
  if (id === ctx.key.account_id) return;
  const other = ctx.svc.objects.get<AccountData>("account", id);
  if (!other || other.data.status === "deleted") throw notFound("account not found");
  throw forbidden(`this API key belongs to account ${ctx.key.account_id} and cannot act on account ${id}`);
}

/** Writes are refused while the account (or its parent) is suspended. */
export function checkSuspension(ctx: Ctx): void {
  if (ctx.method === "GET") return;
  const a = ctx.account;
  if (a.status === "suspended" || a.status === "parent-suspended") {
    throw forbidden(`account ${a.id} is ${a.status}; only reads are allowed`);
  }
  if (a.parent_account_id) {
    const p = ctx.svc.objects.get<AccountData>("account", a.parent_account_id);
    if (p && p.data.status === "suspended")
      throw forbidden(`account ${a.id} is parent-suspended; only reads are allowed`);
  }
}

export const isSubAccountKey = (ctx: Ctx): boolean => ctx.account.parent_account_id !== null;
