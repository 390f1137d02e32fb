import * as pulumi from "@pulumi/pulumi";
import type { CommonArgs } from "./internal/common";
import { TxmailResource } from "./internal/txmailResource";

export interface ApiKeyArgs extends CommonArgs {
  /** Label shown in the service's console, 1–255 characters. Updated in place. */
  label: pulumi.Input<string>;
  /** Scopes such as `messages:send:all` or `routes:write:{domain}`. Updated in place. */
  scopes: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * CIDR blocks or bare addresses allowed to use the key (empty = no restriction). Canonicalised and
   * de-duplicated; allow-all prefixes (`0.0.0.0/0`, `::/0` in any spelling) and > 100 entries are rejected.
   */
  ipAllowList?: pulumi.Input<pulumi.Input<string>[]>;
  /** Change this value (e.g. a date) to rotate the key: a new key is created before the old one is deleted. */
  rotation?: pulumi.Input<string>;
}

/** An API key of the account. Its `secretKey` is returned once by the service and kept as a Pulumi secret. */
export class ApiKey extends TxmailResource {
  declare readonly label: pulumi.Output<string>;
  declare readonly scopes: pulumi.Output<string[]>;
  declare readonly ipAllowList: pulumi.Output<string[]>;
  /** The key itself (a Pulumi secret). Empty for an adopted key: its secret cannot be retrieved. */
  declare readonly secretKey: pulumi.Output<string>;
  declare readonly publicKey: pulumi.Output<string>;
  declare readonly accountId: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly lastUsedAt: pulumi.Output<string | null>;

  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "ApiKey",
      name,
      args,
      {
        label: args.label,
        scopes: args.scopes,
        ipAllowList: args.ipAllowList,
        rotation: args.rotation,
        secretKey: undefined,
        publicKey: undefined,
        accountId: undefined,
        createdAt: undefined,
        lastUsedAt: undefined,
      },
      opts,
      ["secretKey"],
    );
  }
}
