import type * as pulumi from "@pulumi/pulumi";
import type { smtpCredential } from "../../provider/resources/smtpCredential";
import { type SmtpCredentialFields, SmtpCredentialRegistration } from "./generated/fields";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = [
  "username",
  "password",
  // Of a rotation schedule (provider/core/rotating): unset without one.
  "previousUsername",
  "previousPassword",
  "rotatedAt",
  "nextRotationAt",
  "previousRevokeAt",
] as const;

export interface SmtpCredentialArgs extends ArgsOf<typeof smtpCredential, SmtpCredentialFields> {}

export interface SmtpCredential extends OutputsOf<
  typeof smtpCredential,
  SmtpCredentialFields,
  (typeof OUTPUTS)[number]
> {}

/**
 * SMTP credentials. The service cannot update them: any change replaces the credential (the new one
 * is created before the old one is deleted). `password` is a Pulumi secret, returned once.
 */
export class SmtpCredential extends DeclaredResource {
  constructor(name: string, args: SmtpCredentialArgs, opts?: pulumi.CustomResourceOptions) {
    super("SmtpCredential", SmtpCredentialRegistration, OUTPUTS, name, args, opts);
  }
}
