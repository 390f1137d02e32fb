// Sub accounts (child accounts under one billing relationship) and their usage report.
import { z } from "zod";
import { Hostname, ListOf, Name, Timestamp, Uuid, documentedEnum } from "./common";
import type { CreateForm } from "./createForm";
import { A, action, create, read, remove, update } from "./endpoint";
import { defineKind } from "./kind";

export const SubAccountStatus = documentedEnum("A sub account's state.", {
  active: { description: "In service; the parent may suspend it." },
  suspended: { description: "Suspended by the parent account (with a reason) until it is unsuspended." },
  "parent-suspended": { description: "Suspended because the parent account is suspended." },
  deleted: {
    description:
      "Soft-deleted: no longer listed; its usage in the current billing period is reported under `removedSubAccounts`.",
  },
});
export type SubAccountStatus = z.infer<typeof SubAccountStatus>;

export const SubAccount = z.object({
  object: z.literal("sub_account").describe("The record's type: always `sub_account`."),
  id: Uuid.describe("The sub account's id: its `{account_id}` when managed with its own keys."),
  parent_account_id: Uuid.describe("The parent account, which bills and administers the sub account."),
  name: z.string().describe("Display name."),
  website: z.string().describe("The customer's website (a host name)."),
  status: SubAccountStatus.describe("The sub account's state: `active`, `suspended`, `parent-suspended` or `deleted`."),
  monthly_credit: z.number().int().min(0).describe("Monthly credit cap; 0 = no cap."),
  created_at: Timestamp.describe("When the sub account was created (RFC 3339)."),
  domain_count: z.number().int().describe("How many domains the sub account has."),
  member_count: z.number().int().describe("How many members the sub account has."),
  last_activity_at: Timestamp.nullable().describe(
    "When the service last recorded activity of the sub account (RFC 3339); unset if none yet.",
  ),
});
export type SubAccount = z.infer<typeof SubAccount>;

export const MonthlyCredit = z.number().int().min(0).max(1_000_000_000);

export const CreateSubAccount = z.strictObject({
  name: Name,
  website: Hostname,
  monthly_credit: MonthlyCredit.optional(),
});
export type CreateSubAccount = z.infer<typeof CreateSubAccount>;

/** What a sub account's create stores (createForm.ts): no credit cap (0) when left out. */
export const CreateSubAccountForm = {
  defaults: { monthly_credit: 0 },
} as const satisfies CreateForm<CreateSubAccount>;

export const UpdateSubAccount = z.strictObject({
  name: Name.nullish(),
  website: Hostname.nullish(),
  monthly_credit: MonthlyCredit.nullish(),
});
export type UpdateSubAccount = z.infer<typeof UpdateSubAccount>;

export const SuspendSubAccount = z.strictObject({ reason: z.string().min(1).max(500) });
export type SuspendSubAccount = z.infer<typeof SuspendSubAccount>;

const Cost = {
  reception_count: z
    .number()
    .int()
    .describe("The message volume counted in the billing period; the cost is allocated in proportion to it."),
  allocated_cost: z
    .number()
    .describe("The share of the parent's pooled invoice for the period, in `currency` (not standalone pricing)."),
};

export const SubAccountUsage = z.object({
  billing_period: z
    .object({
      start: Timestamp.describe("Start of the billing period (RFC 3339)."),
      end: Timestamp.describe("End of the billing period (RFC 3339)."),
    })
    .describe("The current billing period."),
  currency: z.string().describe("Currency of the costs: a lower-case currency code."),
  allocation_method: z
    .literal("proportional")
    .describe("How costs are allocated: always `proportional` (by message volume)."),
  allocation_note: z
    .string()
    .describe("The service's note on the allocation: a share of the parent's pooled invoice, not standalone pricing."),
  parent: z
    .object({ account_id: Uuid.describe("The parent account's id."), ...Cost })
    .describe("The parent account's own usage."),
  sub_accounts: z
    .array(
      z
        .object({
          account_id: Uuid.describe("The sub account's id."),
          name: z.string().describe("The sub account's name."),
          ...Cost,
        })
        .describe("One active sub account's usage."),
    )
    .describe("The usage of each active sub account."),
  removed_sub_accounts: z
    .object(Cost)
    .describe(
      "The usage of sub accounts deleted in the current period, together: still billed to the parent, not attributed to each.",
    ),
  total: z.object(Cost).describe("The parent, the active sub accounts and the removed ones together."),
});
export type SubAccountUsage = z.infer<typeof SubAccountUsage>;

export const subAccountEndpoints = {
  listSubAccounts: read(`${A}/sub-accounts`, ListOf(SubAccount)),
  createSubAccount: create(`${A}/sub-accounts`, CreateSubAccount, SubAccount),
  subAccountUsage: read(`${A}/sub-accounts/usage`, SubAccountUsage),
  getSubAccount: read(`${A}/sub-accounts/{sub_account_id}`, SubAccount),
  updateSubAccount: update(`${A}/sub-accounts/{sub_account_id}`, UpdateSubAccount, SubAccount),
  deleteSubAccount: remove(`${A}/sub-accounts/{sub_account_id}`),
  suspendSubAccount: action(`${A}/sub-accounts/{sub_account_id}/suspend`, SubAccount, SuspendSubAccount),
  unsuspendSubAccount: action(`${A}/sub-accounts/{sub_account_id}/unsuspend`, SubAccount),
} as const;

export const SubAccountKind = defineKind({ order: 20 });
