import type * as pulumi from "@pulumi/pulumi";
import type { suppression } from "../../provider/resources/suppression";
import { type SuppressionFields, SuppressionRegistration } from "./generated/fields";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = ["createdAt"] as const;

export interface SuppressionArgs extends ArgsOf<typeof suppression, SuppressionFields> {}

/** The service reports "every domain" and "no reason" as null; the provider leaves them unset (`outputsOf`). */
interface Reshaped {
  domain: string | undefined;
  reason: string | undefined;
}

export interface Suppression extends OutputsOf<
  typeof suppression,
  SuppressionFields,
  (typeof OUTPUTS)[number],
  Reshaped
> {}

/**
 * An address the account must never mail. Any change replaces it (delete first when email and
 * domain stay). After `expiresAt` the service drops it: `pulumi refresh` removes it from state and
 * the next `pulumi up` recreates it only if the program still declares it (with a later expiresAt).
 */
export class Suppression extends DeclaredResource {
  constructor(name: string, args: SuppressionArgs, opts?: pulumi.CustomResourceOptions) {
    super("Suppression", SuppressionRegistration, OUTPUTS, name, args, opts);
  }
}
