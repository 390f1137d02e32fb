// Sub accounts (child accounts under one billing relationship) and their usage report.
import { z } from "zod";
import { Hostname, Name, Timestamp, Uuid } from "./common";

export const SubAccountStatus = z.enum(["active", "suspended", "parent-suspended", "deleted"]);
export type SubAccountStatus = z.infer<typeof SubAccountStatus>;

export const SubAccount = z.object({
  object: z.literal("sub_account"),
  id: Uuid,
  parent_account_id: Uuid,
  name: z.string(),
  website: z.string(),
  /** `active`, `suspended`, `parent-suspended` or `deleted`. */
  status: SubAccountStatus,
  monthly_credit: z.number().int().min(0),
  created_at: Timestamp,
  domain_count: z.number().int(),
  member_count: z.number().int(),
  last_activity_at: Timestamp.nullable(),
});
export type SubAccount = z.infer<typeof SubAccount>;

export const MonthlyCredit = z.number().int().min(0).max(1_000_000_000);

export const CreateSubAccount = z.strictObject({
  name: Name,
  website: Hostname,
  monthly_credit: MonthlyCredit.optional(),
});
export type CreateSubAccount = z.infer<typeof CreateSubAccount>;

export const UpdateSubAccount = z.strictObject({
  name: Name.nullish(),
  website: Hostname.nullish(),
  monthly_credit: MonthlyCredit.nullish(),
});
export type UpdateSubAccount = z.infer<typeof UpdateSubAccount>;

export const SuspendSubAccount = z.strictObject({ reason: z.string().min(1).max(500) });
export type SuspendSubAccount = z.infer<typeof SuspendSubAccount>;

const Cost = { reception_count: z.number().int(), allocated_cost: z.number() };

export const SubAccountUsage = z.object({
  billing_period: z.object({ start: Timestamp, end: Timestamp }),
  currency: z.string(),
  allocation_method: z.literal("proportional"),
  allocation_note: z.string(),
  parent: z.object({ account_id: Uuid, ...Cost }),
  sub_accounts: z.array(z.object({ account_id: Uuid, name: z.string(), ...Cost })),
  removed_sub_accounts: z.object(Cost),
  total: z.object(Cost),
});
export type SubAccountUsage = z.infer<typeof SubAccountUsage>;
