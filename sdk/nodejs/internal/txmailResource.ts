// The base of every txmail resource class: the face it is registered through (face.ts), the
// provider for its kind, the props all resources share (connection, adoptId, the URN for
// idempotency keys), secret outputs, and one cost kept off the program's critical path (below).
import * as pulumi from "@pulumi/pulumi";
import { nativeTypeToken } from "../../../provider/api/typeTokens";
import { type CommonArgs, commonProps, nativeCommonProps, withSecretOutputs } from "./common";
import type { Kind } from "../../../provider/api/kinds";
import { dynamicProvider } from "./dynamicProvider";
import { configuredFace } from "./face";
import { hideOwnFrames } from "./ownFrames";
import { withPlugin } from "./plugin";
import { Provider } from "../provider";

/**
 * Whether to keep full stack traces on the SDK's internal promises: only when the user asked Pulumi
 * to diagnose promise leaks, the one thing those traces are for.
 */
const keepPromiseStacks = () => !!process.env.PULUMI_DEBUG_PROMISE_LEAKS;

/**
 * A custom resource of either face. The dynamic face is registered by pulumi.dynamic.Resource's own
 * constructor, run for this object (`Reflect.construct` with `new.target`): the very registration
 * the classes made when they extended it, so existing stacks see no change. The native face is a
 * plain custom resource of type `txmail:index:<Kind>`.
 */
export abstract class TxmailResource extends pulumi.CustomResource {
  protected constructor(
    kind: Kind,
    name: string,
    args: CommonArgs,
    props: Record<string, unknown>,
    opts: pulumi.CustomResourceOptions | undefined,
    secretOutputs: string[] = [],
  ) {
    // @pulumi/pulumi wraps each property of a resource in four promises and formats a stack trace
    // for each (kept for its promise-leak report). Under ts-node every trace goes through source
    // maps, ~0.1 ms each: with our ~15 properties that was 2 s of a 50-tenant program's 9 s
    // (bench/RESULTS.md). The resource's own source position and stack trace — what state and
    // error messages show — are captured by Pulumi with its own limit and are unaffected.
    const limit = Error.stackTraceLimit;
    if (!keepPromiseStacks()) Error.stackTraceLimit = 0;
    let showOwnFrames = (): void => undefined;
    try {
      // Inside the try: a bad `txmail:face` is an error of registering, restored below like any other.
      const native = Provider.isTxmailProvider(opts?.provider) || configuredFace() === "native";
      // The state records the user's line, not this package's (ownFrames.ts).
      showOwnFrames = hideOwnFrames(native ? 1 : 0);
      const options = secretOutputs.length ? withSecretOutputs(opts, secretOutputs) : opts;
      if (native) {
        // The engine names the resource to the plugin in every call, and the provider resource
        // keeps the stack's salt (native/provider.ts): neither `__urn` nor a StackSalt resource.
        // The plugin is named by version and download URL, so the engine acquires it (plugin.ts).
        super(nativeTypeToken(kind), name, { ...nativeCommonProps(args), ...props }, withPlugin(options));
        return;
      }
      return Reflect.construct(
        pulumi.dynamic.Resource,
        [dynamicProvider(kind), name, { ...commonProps(name, kind, args, opts), ...props }, options, "txmail", kind],
        new.target,
      ) as TxmailResource;
    } catch (err) {
      // An error thrown while registering gets a stack again, pointing at the user's code.
      showOwnFrames();
      Error.stackTraceLimit = limit;
      if (err instanceof Error) Error.captureStackTrace(err, new.target);
      throw err;
    } finally {
      showOwnFrames();
      Error.stackTraceLimit = limit;
    }
  }
}
