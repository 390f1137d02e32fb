// SMTP credentials. The API has no update: every change is a replacement.
import { z } from "zod";
import { Hostname, Name, ObjectScope, Timestamp, Uuid } from "./common";
import { type CreateForm, storedDomains } from "./createForm";
import { requireDomainsWhenScoped } from "./webhook";
import { ListOf } from "./common";
import { A, create, read, remove } from "./endpoint";
import { defineKind, familyScopes, manage, scopedDomains } from "./kind";

export const SmtpCredential = z.object({
  object: z.literal("credential_smtp").describe("The record's type: always `credential_smtp`."),
  id: Uuid.describe("The credential's id."),
  created_at: Timestamp.describe("When the credential was created (RFC 3339)."),
  updated_at: Timestamp.describe("When the credential was last changed (RFC 3339)."),
  name: z.string().describe("The credential's name."),
  username: z.string().describe("The SMTP user name to log in with."),
  sandbox: z.boolean().describe("Whether mail sent with it goes to the sandbox instead of real recipients."),
  scope: ObjectScope.describe("`global` (every domain) or `scoped` (only `domains`)."),
  domains: z.array(z.string()).describe("The domains of a scoped credential; empty when global."),
});
export type SmtpCredential = z.infer<typeof SmtpCredential>;

/** Creation returns the password once. */
export const SmtpCredentialWithPassword = SmtpCredential.extend({
  password: z.string().describe("The SMTP password."),
});
export type SmtpCredentialWithPassword = z.infer<typeof SmtpCredentialWithPassword>;

export const CreateSmtpCredential = z
  .strictObject({
    name: Name,
    scope: ObjectScope,
    sandbox: z.boolean().optional(),
    domains: z.array(Hostname).optional(),
  })
  .superRefine(requireDomainsWhenScoped);
export type CreateSmtpCredential = z.infer<typeof CreateSmtpCredential>;

/** What a credential's create stores (createForm.ts): as for webhooks' domains; not sandboxed when left out. */
export const CreateSmtpCredentialForm = {
  defaults: { sandbox: false, domains: [] },
  stored: { domains: storedDomains },
} as const satisfies CreateForm<CreateSmtpCredential>;

// No update endpoint: every change is a replacement.
export const smtpCredentialEndpoints = {
  listSmtpCredentials: read(`${A}/smtp-credentials`, ListOf(SmtpCredential)),
  createSmtpCredential: create(`${A}/smtp-credentials`, CreateSmtpCredential, SmtpCredentialWithPassword),
  getSmtpCredential: read(`${A}/smtp-credentials/{smtp_credential_id}`, SmtpCredential),
  deleteSmtpCredential: remove(`${A}/smtp-credentials/{smtp_credential_id}`),
} as const;

/** A `scoped` credential is tied to its domains; a global one to none (the `:all` scopes). */
export const SmtpCredentialKind = defineKind({
  order: 80,
  managed: true,
  manage: manage({ scope: "text", domains: "list" }, (o) => familyScopes("smtp-credentials", scopedDomains(o))),
});
