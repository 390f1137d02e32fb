// Account members (docs/contract/endpoints/members.md): list (not paginated), add, remove. No update endpoint: a role change is remove + add.
// Who owns an account and whom a key acts for: emulator/members.ts.
import { AddMember } from "../../provider/api";
import type { Ctx, EmulatedEndpoints } from "../context";
import { conflict, forbidden, notFound } from "../http/errors";
import { type MemberData, addMembership, memberRecord, memberRowId, normalEmail, userFor } from "../members";
import { parseBody, uuidParam } from "../validate";
import { DELETED, created, ok } from "./common";

/** What this file stores (memberships; users are not dumped (the members' section names them)): a row's type and its section of the state dump (emulator/store/objects.ts). */
export const STORED = { member: "members", user: null } as const;

function list(ctx: Ctx) {
  const data = ctx.svc.objects.all<MemberData>("member", ctx.account.id).map((r) => memberRecord(r.data));
  return ok({ object: "list", data });
}

function add(ctx: Ctx) {
  const b = parseBody(AddMember, ctx.json());
  const email = normalEmail(b.email);
  // A plain 409, no Idempotent-Replayed / Retry-After: terminal (docs/contract/retries.md#terminal-answers).
  if (ctx.svc.objects.byName("member", ctx.account.id, email))
    throw conflict(`${email} is already a member of this account`);
  const user = userFor(ctx.svc.objects, email);
  return created(memberRecord(addMembership(ctx.svc.objects, ctx.account.id, user, b.role, b.name ?? null, ctx.iso())));
}

function remove(ctx: Ctx) {
  const userId = uuidParam("user_id", ctx.params.user_id!);
  const row = ctx.svc.objects.get<MemberData>("member", memberRowId(ctx.account.id, userId));
  if (!row) throw notFound("member not found");
  // The two removal restrictions (docs/contract/endpoints/members.md#removal-restrictions). 403: error
  // rule 1 lists "ownership" among the conditions that share a status with scope and allow-list refusals.
  if (userId === ctx.account.owner_user_id) throw forbidden("the account owner cannot be removed");
  if (userId === ctx.key.user_id) throw forbidden("a caller cannot remove itself: this API key acts for that member");
  ctx.svc.objects.delete(row.id);
  return ok({ message: DELETED });
}

export const members: EmulatedEndpoints = {
  listMembers: { scope: { fixed: "accounts:members:read" }, handler: list },
  addMember: { scope: { fixed: "accounts:members:add" }, idempotent: "plain", handler: add },
  removeMember: { scope: { fixed: "accounts:members:remove" }, handler: remove },
};
