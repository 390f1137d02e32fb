// SMTP credentials. The service has no update endpoint, so every change replaces the credential,
// create-before-delete (a sender switches to the new password while the old one still works). A
// `rotation` schedule (core/rotating) makes the next credential beside the previous one instead.
import { z } from "zod";
import {
  CreateSmtpCredentialForm,
  Hostname,
  Name,
  ObjectScope,
  paths,
  SmtpCredential,
  SmtpCredentialWithPassword,
} from "../api";
import type { Declaration } from "../core/declaration";
import { RotationSchedule } from "../core/rotating/schedule";
import { scopedDomains } from "./fields";
import { domainScopes } from "./webhook";

const inputs = z.object({
  name: Name.describe("The credential's name."),
  sandbox: z.boolean().default(false).describe("Send to the sandbox instead of real recipients."),
  scope: ObjectScope.default("global").describe("`global` (default) or `scoped` to `domains`."),
  domains: z
    .array(Hostname)
    .default([])
    .describe("Domains of a scoped credential (required non-empty when scoped, empty when global)."),
  rotation: RotationSchedule.optional().describe(
    'Rotate the credential on a schedule: `{ every: "30d", overlap: "7d" }` — a `pulumi up` after `every` ' +
      "makes a new credential (its own `username` and `password`) and keeps the previous one live for `overlap` " +
      "(outputs `previousUsername`, `previousPassword`, `nextRotationAt`, `previousRevokeAt`), the first " +
      "`pulumi up` after that revokes it. A change of the schedule makes no credential.",
  ),
});

export const smtpCredential = {
  kind: "SmtpCredential",
  title: (p) => p.name,
  description:
    "SMTP credentials. The service cannot update them: any change replaces the credential (the new one is created " +
    "before the old one is deleted). `password` is a Pulumi secret, returned once.",
  sdk: {
    outputs: ["username", "password"],
  },
  inputs,
  apiFields: ["name", "sandbox", "scope", "domains"],
  createForm: CreateSmtpCredentialForm,
  // `rotation` is in the creation's idempotency key (createKey.ts): a rotation's number, never the schedule.
  replaceOn: ["name", "sandbox", "scope", "domains", "rotation"],
  rotating: { input: "rotation", secret: "password", carried: ["username"] } as const,
  immutable: true,
  createOnly: {
    /** The SMTP password (a Pulumi secret, returned once at creation; empty when adopted). */
    password: "password",
  },
  validate: scopedDomains,
  listing: { listed: true },
  record: SmtpCredential,
  created: SmtpCredentialWithPassword,
  collectionPath: (c) => paths.smtpCredentials(c.accountId),
  itemPath: (c, _p, id) => paths.smtpCredential(c.accountId, id),
  scopes: {
    read: (p) => ["smtp-credentials:read:all", ...domainScopes("smtp-credentials:read", p)],
    write: (p) => ["smtp-credentials:write:all", ...domainScopes("smtp-credentials:write", p)],
    delete: (p) => ["smtp-credentials:delete:all", ...domainScopes("smtp-credentials:delete", p)],
  },
} satisfies Declaration<z.infer<typeof inputs>>;
