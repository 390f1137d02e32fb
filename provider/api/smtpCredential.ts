// SMTP credentials. The API has no update: every change is a replacement.
import { z } from "zod";
import { Hostname, Name, ObjectScope, Timestamp, Uuid } from "./common";
import { requireDomainsWhenScoped } from "./webhook";

export const SmtpCredential = z.object({
  object: z.literal("credential_smtp"),
  id: Uuid,
  created_at: Timestamp,
  updated_at: Timestamp,
  name: z.string(),
  username: z.string(),
  sandbox: z.boolean(),
  scope: ObjectScope,
  domains: z.array(z.string()),
});
export type SmtpCredential = z.infer<typeof SmtpCredential>;

/** Creation returns the password once. */
export const SmtpCredentialWithPassword = SmtpCredential.extend({ password: z.string() });
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
