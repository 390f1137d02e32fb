// An explicit instance of the native provider (`pulumi:providers:txmail`), for stacks that manage
// several accounts: pass it as a resource's `provider` (or a component's `providers`), and that
// resource is served by the `txmail` plugin with these settings. Settings left out fall back to the
// TXMAIL_* environment of the engine, as the default provider's do.
import * as pulumi from "@pulumi/pulumi";
import { withPlugin } from "./internal/plugin";

export interface ProviderArgs {
  /** The account's API key. Stored as a Pulumi secret. */
  apiKey?: pulumi.Input<string>;
  /** The account's id (a uuid). */
  accountId?: pulumi.Input<string>;
  /** Service base URL, e.g. the local emulator's; default the public service. */
  baseUrl?: pulumi.Input<string>;
  /**
   * The stack's idempotency salt, pinned (e.g. `new pulumi.Config("txmail").require("stackSalt")`).
   * Default: the one this provider keeps in its own state, drawn when it is first created.
   */
  stackSalt?: pulumi.Input<string>;
}

export class Provider extends pulumi.ProviderResource {
  /** Whether `obj` is a txmail Provider (also one made by another copy of this package). */
  static isTxmailProvider(obj: unknown): obj is Provider {
    return pulumi.ProviderResource.isInstance(obj) && (obj as { __txmailProvider?: true }).__txmailProvider === true;
  }
  /** @internal Marks instances across copies of the package (see isTxmailProvider). */
  readonly __txmailProvider = true as const;

  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    super(
      "txmail",
      name,
      {
        apiKey: args.apiKey === undefined ? undefined : pulumi.secret(args.apiKey),
        accountId: args.accountId,
        baseUrl: args.baseUrl,
        stackSalt: args.stackSalt,
      },
      // The plugin this provider runs, as the package's resources name it (internal/plugin.ts).
      withPlugin(opts),
    );
  }
}
