// Account members (api-paths.md "UserAccount", "AddMember"): who may log in to an account, with
// which role. The record carries no email or display name; there is no GET by id and no update
// (a role change is remove + add).
import { z } from "zod";
import { Timestamp, Uuid } from "./common";

export const MemberRole = z.enum(["Administrator", "Developer", "Analyst", "Billing Manager"]);
export type MemberRole = z.infer<typeof MemberRole>;

export const AccountMember = z.object({
  user_id: Uuid,
  account_id: Uuid,
  role: MemberRole,
  created_at: Timestamp,
  updated_at: Timestamp,
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
