import type * as pulumi from "@pulumi/pulumi";
import type { apiKey } from "../../provider/resources/apiKey";
import { type ApiKeyFields, ApiKeyRegistration } from "./generated/fields";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = [
  "secretKey",
  "publicKey",
  "accountId",
  "createdAt",
  "lastUsedAt",
  // Of a rotation schedule (provider/core/rotating): unset without one.
  "previousSecretKey",
  "rotatedAt",
  "nextRotationAt",
  "previousRevokeAt",
] as const;

export interface ApiKeyArgs extends ArgsOf<typeof apiKey, ApiKeyFields> {}

export interface ApiKey extends OutputsOf<typeof apiKey, ApiKeyFields, (typeof OUTPUTS)[number]> {}

/** An API key of the account. Its `secretKey` is returned once by the service and kept as a Pulumi secret. */
export class ApiKey extends DeclaredResource {
  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super("ApiKey", ApiKeyRegistration, OUTPUTS, name, args, opts);
  }
}
