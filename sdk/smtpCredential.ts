import * as pulumi from "@pulumi/pulumi";
import type { CommonArgs } from "./internal/common";
import { TxmailResource } from "./internal/txmailResource";

export interface SmtpCredentialArgs extends CommonArgs {
  name: pulumi.Input<string>;
  /** Send to the sandbox instead of real recipients. */
  sandbox?: pulumi.Input<boolean>;
  /** `global` (default) or `scoped` to `domains`. */
  scope?: pulumi.Input<"global" | "scoped">;
  domains?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * SMTP credentials. The service cannot update them: any change replaces the credential (the new one
 * is created before the old one is deleted). `password` is a Pulumi secret, returned once.
 */
export class SmtpCredential extends TxmailResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly username: pulumi.Output<string>;
  declare readonly password: pulumi.Output<string>;
  declare readonly sandbox: pulumi.Output<boolean>;
  declare readonly scope: pulumi.Output<"global" | "scoped">;
  declare readonly domains: pulumi.Output<string[]>;

  constructor(name: string, args: SmtpCredentialArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "SmtpCredential",
      name,
      args,
      {
        name: args.name,
        sandbox: args.sandbox,
        scope: args.scope,
        domains: args.domains,
        username: undefined,
        password: undefined,
      },
      opts,
      ["password"],
    );
  }
}
