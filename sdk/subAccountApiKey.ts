import * as pulumi from "@pulumi/pulumi";
import type { ApiKeyArgs } from "./apiKey";
import { TxmailResource } from "./internal/txmailResource";

export interface SubAccountApiKeyArgs extends ApiKeyArgs {
  /** The sub account the key authenticates as. Changing it replaces the key. */
  subAccountId: pulumi.Input<string>;
  /**
   * Keep scopes removed from `scopes` on the key until its next update. For a key other objects
   * of the program are managed with (a Tenant's bootstrap key): Pulumi updates the key before them
   * and deletes removed objects last, so a removed route is deleted while the key can still delete
   * it; the following `pulumi up` narrows the key.
   */
  deferScopeRemoval?: pulumi.Input<boolean>;
}

/**
 * An API key that authenticates as a sub account, created with the parent's credentials (the
 * sub account's own keys cannot manage these). Use its `secretKey` as the tenant's bootstrap key.
 */
export class SubAccountApiKey extends TxmailResource {
  declare readonly subAccountId: pulumi.Output<string>;
  declare readonly label: pulumi.Output<string>;
  declare readonly scopes: pulumi.Output<string[]>;
  declare readonly ipAllowList: pulumi.Output<string[]>;
  /** The key itself (a Pulumi secret). Empty for an adopted key: its secret cannot be retrieved. */
  declare readonly secretKey: pulumi.Output<string>;
  declare readonly publicKey: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly lastUsedAt: pulumi.Output<string | null>;

  constructor(name: string, args: SubAccountApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "SubAccountApiKey",
      name,
      args,
      {
        subAccountId: args.subAccountId,
        label: args.label,
        scopes: args.scopes,
        ipAllowList: args.ipAllowList,
        rotation: args.rotation,
        deferScopeRemoval: args.deferScopeRemoval,
        secretKey: undefined,
        publicKey: undefined,
        createdAt: undefined,
        lastUsedAt: undefined,
      },
      opts,
      ["secretKey"],
    );
  }
}
