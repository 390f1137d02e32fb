// Sub accounts. `suspended` drives the suspend/unsuspend endpoints (the service requires a reason);
// delete is the service's soft delete, and a sub account already gone counts as deleted.
import { z } from "zod";
import { CreateSubAccount, CreateSubAccountForm, paths, SubAccount } from "../api";
import { keysToCamel } from "../core/casing";
import type { Declaration } from "../core/declaration";

const inputs = z.object({
  name: CreateSubAccount.shape.name.describe("Display name, 1–255 characters. Updated in place."),
  website: CreateSubAccount.shape.website.describe(
    "The customer's website (a host name such as `shop.example.com`). Updated in place.",
  ),
  monthlyCredit: z
    .number()
    .int()
    .min(0)
    .max(1_000_000_000)
    .optional()
    .describe("Monthly credit cap, 0 = no cap. Updated in place."),
  suspended: z
    .boolean()
    .default(false)
    .describe("Suspend (true) or reactivate (false) the sub account. Default false."),
  suspensionReason: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe("Why the account is suspended; required when `suspended` is true."),
});

export const subAccount = {
  kind: "SubAccount",
  title: (p) => p.name,
  description: "A child account under the parent's billing. Deleting it is the service's soft delete.",
  sdk: { outputs: ["status", "parentAccountId", "domainCount", "memberCount", "createdAt", "lastActivityAt"] },
  inputs,
  apiFields: ["name", "website", "monthlyCredit"],
  createForm: CreateSubAccountForm,
  stateFields: ["suspended"],
  replaceOn: [],
  // A deleted sub account is the service's soft delete: no object to import.
  listing: { listed: true, live: (r) => r.status !== "deleted" },
  record: SubAccount,
  created: SubAccount,
  collectionPath: (c) => paths.subAccounts(c.accountId),
  itemPath: (c, _p, id) => paths.subAccount(c.accountId, id),
  scopes: {
    read: () => ["sub-accounts:read"],
    // suspend/unsuspend (driven by `suspended`) need sub-accounts:suspend instead.
    write: () => ["sub-accounts:write", "sub-accounts:suspend"],
    delete: () => ["sub-accounts:delete"],
  },
  validate: (p) =>
    p.suspended === true && !p.suspensionReason
      ? [
          {
            property: "suspensionReason",
            reason: "suspensionReason: required when suspended is true (the service asks for a reason)",
          },
        ]
      : [],
  outputsOf: (r) => ({ ...keysToCamel(r), suspended: r.status === "suspended" }),
  async reconcile({ api, conn }, props, record) {
    const id = String(record.id);
    if (props.suspended === true && record.status === "active") {
      return api
        .post(paths.subAccountSuspend(conn.accountId, id), { reason: props.suspensionReason }, SubAccount)
        .then((r) => r.data);
    }
    if (props.suspended === false && record.status === "suspended") {
      return api.post(paths.subAccountUnsuspend(conn.accountId, id), undefined, SubAccount).then((r) => r.data);
    }
    return record;
  },
} satisfies Declaration<z.infer<typeof inputs>>;
