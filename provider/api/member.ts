// Account members (docs/contract/endpoints/members.md): who may log in to an account, with
// which role. The record carries no email or display name; there is no GET by id and no update
// (a role change is remove + add).
import { z } from "zod";
import { Timestamp, Uuid, documentedEnum } from "./common";
import type { CreateForm } from "./createForm";
import { A, create, read, remove } from "./endpoint";
import { defineKind, manage } from "./kind";

/** The four roles; the API names them but does not publish what each may do. */
export const MemberRole = documentedEnum(
  "A member's role in an account: one of the four roles the service defines, which decides what each permits.",
  {
    Administrator: { description: "The service's `Administrator` role." },
    Developer: { description: "The service's `Developer` role." },
    Analyst: { description: "The service's `Analyst` role." },
    "Billing Manager": { name: "BillingManager", description: "The service's `Billing Manager` role." },
  },
);
export type MemberRole = z.infer<typeof MemberRole>;

export const AccountMember = z.object({
  user_id: Uuid.describe("The member's user id; the service's paths address the membership by it."),
  account_id: Uuid.describe("The account the person is a member of."),
  role: MemberRole.describe("The member's role in the account."),
  created_at: Timestamp.describe("When the person became a member (RFC 3339)."),
  updated_at: Timestamp.describe("When the membership last changed (RFC 3339)."),
});
export type AccountMember = z.infer<typeof AccountMember>;

/** `GET /members` is not paginated: the envelope has no `pagination`. */
export const MemberList = z.object({ object: z.literal("list"), data: z.array(AccountMember) });
export type MemberList = z.infer<typeof MemberList>;

export const AddMember = z.strictObject({
  email: z.email("must be an email address"),
  name: z.string().trim().min(1, "must not be blank").max(255).optional(),
  role: MemberRole,
});
export type AddMember = z.infer<typeof AddMember>;

/** What adding a member stores (createForm.ts): the address trimmed, in lower case; the name trimmed; no defaults. */
export const AddMemberForm = {
  defaults: {},
  stored: { email: (email) => email.trim().toLowerCase(), name: (name) => name.trim() },
} as const satisfies CreateForm<AddMember>;

// Not paginated; no update endpoint: a role change is remove + add.
export const memberEndpoints = {
  listMembers: read(`${A}/members`, MemberList),
  addMember: create(`${A}/members`, AddMember, AccountMember),
  removeMember: remove(`${A}/members/{user_id}`),
} as const;

/** Members have no `{domain}` scopes. */
export const AccountMemberKind = defineKind({
  order: 90,
  managed: true,
  manage: manage({}, () => ["accounts:members:add", "accounts:members:read", "accounts:members:remove"]),
});
