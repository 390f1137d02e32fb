// Inputs and options every txmail resource shares.
import * as pulumi from "@pulumi/pulumi";
import { dynamicTypeToken } from "../../../provider/api/typeTokens";
import { stackSalt } from "./stackSalt";

/** Credentials for one resource, overriding the `txmail:*` config (for stacks that manage several accounts). */
export interface ConnectionArgs {
  /** API key to use for this resource. Stored as a Pulumi secret. */
  apiKey?: pulumi.Input<string>;
  /** Account the resource belongs to (a sub account's id when using that sub account's key). */
  accountId?: pulumi.Input<string>;
  /** Service base URL, e.g. the local emulator's. */
  baseUrl?: pulumi.Input<string>;
}

export interface CommonArgs {
  /** Per-resource credentials; defaults to the `txmail:*` stack config, then TXMAIL_* env vars. */
  connection?: pulumi.Input<ConnectionArgs>;
  /**
   * Adopt the existing object with this id (a domain: its name) instead of creating one. Fields that
   * cannot change in place must match the program; the others are updated to the program's values.
   * (`pulumi import` cannot import dynamic resources: pulumi/pulumi#16175.)
   */
  adoptId?: pulumi.Input<string>;
}

/** Props every resource sends to its provider besides its own. */
export function commonProps(
  name: string,
  kind: string,
  args: CommonArgs,
  opts: pulumi.CustomResourceOptions | undefined,
) {
  return {
    ...nativeCommonProps(args),
    // Identity for stable idempotency keys: the URN this resource will have, and what makes it
    // unique to this stack (see stackSalt.ts). Only create reads them; diff ignores both.
    __urn: urnOf(name, dynamicTypeToken(kind), opts?.parent),
    __stackSalt: stackSalt(),
    // The dynamic-provider host reports no detailed diff, so the engine cannot apply
    // `replaceOnChanges` itself: the provider's diff does (operations/diff.ts). Only when set, so
    // other resources' inputs stay as they were.
    ...(opts?.replaceOnChanges?.length ? { __replaceOnChanges: opts.replaceOnChanges } : {}),
  };
}

/**
 * Props every resource sends to the native provider besides its own. No identity: the engine names
 * the resource in every call, and the provider resource keeps the stack's salt (native/provider.ts).
 */
export function nativeCommonProps(args: CommonArgs) {
  return {
    connection: args.connection === undefined ? undefined : secretKeyOnly(args.connection),
    adoptId: args.adoptId,
  };
}

/**
 * The URN a resource will have. Not `createUrn(name, type, parent)`: its output depends on the
 * parent, and depending on a component means depending on all of its children — this resource
 * included — a cycle the engine never resolves. Only the parent's URN *value* is needed.
 */
function urnOf(name: string, type: string, parent: pulumi.Resource | undefined): pulumi.Output<string> {
  // Not a resource: Pulumi's constructor rejects it right after this with a clear message.
  if (!parent || !pulumi.Resource.isInstance(parent)) return pulumi.createUrn(name, type);
  const parentUrn = new Promise<string>((resolve) => parent.urn.apply((urn) => resolve(urn)));
  return pulumi.createUrn(name, type, pulumi.output(parentUrn));
}

/** Marks provider-created outputs (one-time secrets) as secrets, on top of the caller's options. */
export function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  secretOutputs: string[],
): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secretOutputs] };
}

/**
 * The connection with its API key a secret, whatever the program passed. The key alone, not the whole
 * object: the engine unwraps secrets for dynamic providers, and an object that was one secret is
 * logged field by field at `-v=9`, while a secret field inside a plain object stays opaque.
 */
function secretKeyOnly(connection: pulumi.Input<ConnectionArgs>): ConnectionArgs {
  if (!pulumi.Output.isInstance(connection) && !isPromiseLike(connection)) {
    // Already a plain object (as the Tenant passes to its children): only the key needs wrapping.
    // Absent fields stay absent, so they cost nothing to register or to keep in state.
    const plain: ConnectionArgs = { apiKey: pulumi.secret(connection.apiKey) as pulumi.Output<string> };
    if (connection.accountId !== undefined) plain.accountId = connection.accountId;
    if (connection.baseUrl !== undefined) plain.baseUrl = connection.baseUrl;
    return plain;
  }
  // One output of an object, maybe secret as a whole: split it into a plain object of outputs.
  const c = pulumi.output(connection);
  return {
    apiKey: pulumi.secret(c.apply((x) => x?.apiKey)) as pulumi.Output<string>,
    // Derived from a possibly secret object: un-secret the fields that are not credentials.
    accountId: pulumi.unsecret(c.apply((x) => x?.accountId)) as pulumi.Output<string>,
    baseUrl: pulumi.unsecret(c.apply((x) => x?.baseUrl)) as pulumi.Output<string>,
  };
}

function isPromiseLike(x: unknown): x is PromiseLike<unknown> {
  return typeof (x as PromiseLike<unknown> | undefined)?.then === "function";
}
