// The package schema's enum types (native/schema.json `types`), as the code Pulumi generates refers
// to them: `txmail.Scope.Scoped`, `txmail.Role.Developer`. The TypeScript `pulumi import` prints uses
// these, so they are what a generated SDK would export: a value object and a type of its values.
// test/unit/sdk/enums.test.ts keeps them equal to the schema's enums.

/**
 * A webhook's or SMTP credential's reach: every domain, or the listed ones. `GlobalScope`, not
 * `Global`: Pulumi's Python generator would escape that one (`global` is a keyword) as `GLOBAL_`.
 */
export const Scope = { GlobalScope: "global", Scoped: "scoped" } as const;
export type Scope = (typeof Scope)[keyof typeof Scope];

/** An account member's role. */
export const Role = {
  Administrator: "Administrator",
  Developer: "Developer",
  Analyst: "Analyst",
  BillingManager: "Billing Manager",
} as const;
export type Role = (typeof Role)[keyof typeof Role];

/** A sub account's status (an output). */
export const Status = {
  Active: "active",
  Suspended: "suspended",
  ParentSuspended: "parent-suspended",
  Deleted: "deleted",
} as const;
export type Status = (typeof Status)[keyof typeof Status];

/** Which of a domain's DNS records a DomainVerification waits for. */
export const RecordsToVerify = { Required: "required", All: "all" } as const;
export type RecordsToVerify = (typeof RecordsToVerify)[keyof typeof RecordsToVerify];
