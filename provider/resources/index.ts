// Every resource the provider implements: one declaration per kind of the list in
// provider/api/kinds.ts (the type below fails to compile while one is missing or extra).
import type { Kind } from "../api/kinds";
import type { AnyDeclaration } from "../core/declaration";
import { accountMember } from "./accountMember";
import { apiKey } from "./apiKey";
import { domain } from "./domain";
import { domainVerification } from "./domainVerification";
import { route } from "./route";
import { smtpCredential } from "./smtpCredential";
import { subAccount } from "./subAccount";
import { subAccountApiKey } from "./subAccountApiKey";
import { suppression } from "./suppression";
import { webhook } from "./webhook";

const byKind = {
  AccountMember: accountMember,
  ApiKey: apiKey,
  Domain: domain,
  DomainVerification: domainVerification,
  Route: route,
  SmtpCredential: smtpCredential,
  SubAccount: subAccount,
  SubAccountApiKey: subAccountApiKey,
  Suppression: suppression,
  Webhook: webhook,
} satisfies { [K in Kind]: { kind: K } };

/** The declarations by kind (their input types differ; the registry holds them as declarations of some inputs). */
export const declarations = byKind as unknown as Readonly<Record<Kind, AnyDeclaration>>;

/** The declaration of `kind`, or undefined when it is no kind of this version. */
export const declarationOf = (kind: string): AnyDeclaration | undefined =>
  Object.hasOwn(declarations, kind) ? declarations[kind as Kind] : undefined;

/** @deprecated use `declarations` (the same registry, keyed by kind). */
export const specs: Readonly<Record<string, AnyDeclaration>> = declarations;
