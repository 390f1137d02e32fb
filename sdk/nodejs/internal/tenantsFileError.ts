// The tenants file's error, apart from both its users: tenantsFile.ts exports it with the SDK (loaded
// at startup) and the parser throws it (loaded on first use). In either of them it would tie the two
// into a circle of imports.
import * as pulumi from "@pulumi/pulumi";

/** A RunError: a program that lets it escape shows its message once, on the stack, with no stack trace. */
export class TenantsFileError extends pulumi.RunError {
  override readonly name = "TenantsFileError";
}
