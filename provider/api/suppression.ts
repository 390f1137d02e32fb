// Suppressions (docs/contract/endpoints/suppressions.md): addresses an account must not
// mail, for every domain (domain null) or one. No GET by id and no update; delete is by email and
// domain. The create answers a list envelope of the suppressions it created.
import { z } from "zod";
import { Hostname, Timestamp, Uuid } from "./common";
import type { CreateForm } from "./createForm";
import { ListOf } from "./common";
import { A, create, read, remove } from "./endpoint";
import { defineKind, manage } from "./kind";

export const Suppression = z.object({
  object: z.literal("suppression").describe("The record's type: always `suppression`."),
  id: Uuid.describe("The suppression's id."),
  created_at: Timestamp.describe("When the suppression was created (RFC 3339)."),
  email: z.string().describe("The address not to mail."),
  domain: z.string().nullable().describe("The sending domain it applies to; unset: every domain of the account."),
  reason: z.string().nullable().describe("Why the address is suppressed; unset when no reason was given."),
  expires_at: Timestamp.describe("When the suppression ends (RFC 3339); afterwards it no longer exists."),
});
export type Suppression = z.infer<typeof Suppression>;

export const CreateSuppression = z.strictObject({
  email: z.email("must be an email address"),
  domain: Hostname.optional(),
  reason: z.string().max(255).optional(),
  expires_at: Timestamp,
});
export type CreateSuppression = z.infer<typeof CreateSuppression>;

/** What a suppression's create stores (createForm.ts): address and domain in lower case; no defaults (null). */
export const CreateSuppressionForm = {
  defaults: {},
  stored: { email: (email) => email.toLowerCase(), domain: (domain) => domain.toLowerCase() },
} as const satisfies CreateForm<CreateSuppression>;

/** 201 of a create: `{object: "list", data: [Suppression]}` (no pagination). */
export const SuppressionsCreated = z.object({ object: z.literal("list"), data: z.array(Suppression) });
export type SuppressionsCreated = z.infer<typeof SuppressionsCreated>;

export const suppressionEndpoints = {
  listSuppressions: read(`${A}/suppressions`, ListOf(Suppression)),
  createSuppressions: create(`${A}/suppressions`, CreateSuppression, SuppressionsCreated),
  /** Addressed by the query, not a path segment: `?email=…[&domain=…]`. */
  deleteSuppression: remove(`${A}/suppressions`),
  deleteAllSuppressions: remove(`${A}/suppressions/all`),
} as const;

/** Suppressions have no `{domain}` scopes. Not `suppressions:wipe`: the provider deletes one suppression at a time. */
export const SuppressionKind = defineKind({
  order: 100,
  managed: true,
  manage: manage({}, () => ["suppressions:delete", "suppressions:read", "suppressions:write"]),
});
