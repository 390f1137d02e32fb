// Sub accounts (docs/contract/endpoints/sub-accounts.md, its #states): create, list (no deleted), get,
// partial update, soft delete, suspend {reason}, unsuspend, usage.
//
// Transitions: active -suspend-> suspended -unsuspend-> active; any non-deleted -delete-> deleted
// (its API keys are revoked in the same transaction); active -parent suspended-> parent-suspended
// -parent reinstated-> active. Suspending a non-active or unsuspending a non-suspended sub
// account is a 409 naming its status. A deleted sub account is a 404 everywhere.
import {
  CreateSubAccount,
  CreateSubAccountForm,
  SubAccount,
  SuspendSubAccount,
  UpdateSubAccount,
} from "../../provider/api";
import type { Ctx, EmulatedEndpoints } from "../context";
import { uuid } from "../crypto";
import { badRequest, conflict, notFound } from "../http/errors";
import { PAGE_QUERY, listPage } from "../pagination";
import { type AccountData, newAccountData, subAccountRecord } from "../records";
import { type UserData, addMembership } from "../members";
import { parseBody, uuidParam } from "../validate";
import { created, ok } from "./common";
import { usage } from "./usage";

/** What this file stores (accounts (a sub account is one)): a row's type and its section of the state dump (emulator/store/objects.ts). */
export const STORED = { account: "accounts" } as const;

const NESTED = "sub-account keys cannot manage sub accounts (only parent-account keys have sub-accounts:* scopes)";

export function record(ctx: Ctx, a: AccountData): SubAccount {
  return subAccountRecord(a, ctx.svc.objects.count("domain", a.id), ctx.svc.objects.count("member", a.id));
}

function sub(ctx: Ctx): AccountData {
  const id = uuidParam("sub_account_id", ctx.params.sub_account_id!);
  const row = ctx.svc.objects.get<AccountData>("account", id);
  if (!row || row.data.parent_account_id !== ctx.account.id || row.data.status === "deleted") {
    throw notFound("sub account not found");
  }
  return row.data;
}

function save(ctx: Ctx, a: AccountData): AccountData {
  a.updated_at = ctx.iso();
  ctx.svc.objects.update(a.id, a);
  return a;
}

function create(ctx: Ctx) {
  const b = parseBody(CreateSubAccount, ctx.json());
  const now = ctx.iso();
  const parentSuspended = ctx.account.status === "suspended";
  const a = newAccountData(now, {
    id: uuid(),
    parent_account_id: ctx.account.id,
    name: b.name,
    website: b.website,
    status: parentSuspended ? "parent-suspended" : "active",
    monthly_credit: b.monthly_credit ?? CreateSubAccountForm.defaults.monthly_credit,
  });
  // Owned by the user the creating key acts for (emulator/members.ts).
  const owner = ctx.key.user_id ? ctx.svc.objects.get<UserData>("user", ctx.key.user_id)?.data : undefined;
  if (owner) {
    a.owner_user_id = owner.id;
    addMembership(ctx.svc.objects, a.id, owner, "Administrator", null, now);
  }
  ctx.svc.objects.insert("account", a.id, ctx.account.id, a);
  return created(record(ctx, a));
}

function list(ctx: Ctx) {
  return ok(
    listPage<AccountData, SubAccount>(
      ctx.svc.objects,
      "account",
      ctx.account.id,
      ctx.query,
      (r) => record(ctx, r.data),
      { sig: "live", keep: (r) => r.data.status !== "deleted" },
    ),
  );
}

function update(ctx: Ctx) {
  const a = sub(ctx);
  const b = parseBody(UpdateSubAccount, ctx.json());
  if (b.name == null && b.website == null && b.monthly_credit == null) {
    throw badRequest(
      "update must set at least one of name, website, monthly_credit (omitted and null fields stay unchanged)",
    );
  }
  const next = { ...a };
  if (b.name != null) next.name = b.name;
  if (b.website != null) next.website = b.website;
  if (b.monthly_credit != null) next.monthly_credit = b.monthly_credit;
  if (next.name === a.name && next.website === a.website && next.monthly_credit === a.monthly_credit) {
    throw badRequest("update changes nothing: every given value equals the stored one (send only what changed)");
  }
  return ok(record(ctx, save(ctx, next)));
}

function remove(ctx: Ctx) {
  const a = sub(ctx);
  a.status = "deleted";
  a.deleted_at = ctx.iso();
  a.deleted_ms = ctx.now;
  save(ctx, a);
  ctx.svc.objects.deleteAllOf("api_key", a.id);
  return ok({ message: "sub account deleted" });
}

function suspend(ctx: Ctx) {
  const a = sub(ctx);
  const b = parseBody(SuspendSubAccount, ctx.json());
  if (a.status !== "active") throw conflict(`sub account is ${a.status}; only an active sub account can be suspended`);
  a.status = "suspended";
  a.suspend_reason = b.reason;
  return ok(record(ctx, save(ctx, a)));
}

function unsuspend(ctx: Ctx) {
  const a = sub(ctx);
  if (a.status === "parent-suspended") {
    throw conflict("sub account is parent-suspended; it becomes active when the parent account is reinstated");
  }
  if (a.status !== "suspended")
    throw conflict(`sub account is ${a.status}; only a suspended sub account can be unsuspended`);
  a.status = "active";
  a.suspend_reason = null;
  return ok(record(ctx, save(ctx, a)));
}

export const subAccounts: EmulatedEndpoints = {
  listSubAccounts: { scope: { fixed: "sub-accounts:read" }, parentOnly: NESTED, query: PAGE_QUERY, handler: list },
  createSubAccount: {
    scope: { fixed: "sub-accounts:write" },
    parentOnly: NESTED,
    idempotent: "plain",
    handler: create,
  },
  subAccountUsage: { scope: { fixed: "sub-accounts:usage" }, parentOnly: NESTED, handler: usage },
  getSubAccount: {
    scope: { fixed: "sub-accounts:read" },
    parentOnly: NESTED,
    handler: (ctx) => ok(record(ctx, sub(ctx))),
  },
  updateSubAccount: { scope: { fixed: "sub-accounts:write" }, parentOnly: NESTED, handler: update },
  deleteSubAccount: { scope: { fixed: "sub-accounts:delete" }, parentOnly: NESTED, handler: remove },
  suspendSubAccount: {
    scope: { fixed: "sub-accounts:suspend" },
    parentOnly: NESTED,
    handler: suspend,
  },
  unsuspendSubAccount: {
    scope: { fixed: "sub-accounts:suspend" },
    parentOnly: NESTED,
    body: "none",
    handler: unsuspend,
  },
};
