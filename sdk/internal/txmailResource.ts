// The base of every txmail resource class: the provider for its kind, the props all resources share
// (connection, adoptId, the URN for idempotency keys), secret outputs, and one cost kept off the
// program's critical path (below).
import * as pulumi from "@pulumi/pulumi";
import { type CommonArgs, commonProps, withSecretOutputs } from "./common";
import { type Kind, dynamicProvider } from "./dynamicProvider";

/**
 * Whether to keep full stack traces on the SDK's internal promises: only when the user asked Pulumi
 * to diagnose promise leaks, the one thing those traces are for.
 */
const keepPromiseStacks = () => !!process.env.PULUMI_DEBUG_PROMISE_LEAKS;

export abstract class TxmailResource extends pulumi.dynamic.Resource {
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
    try {
      super(
        dynamicProvider(kind),
        name,
        { ...commonProps(name, kind, args, opts), ...props },
        secretOutputs.length ? withSecretOutputs(opts, secretOutputs) : opts,
        "txmail",
        kind,
      );
    } catch (err) {
      // An error thrown while registering gets a stack again, pointing at the user's code.
      Error.stackTraceLimit = limit;
      if (err instanceof Error) Error.captureStackTrace(err, new.target);
      throw err;
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
