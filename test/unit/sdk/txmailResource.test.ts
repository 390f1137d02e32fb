// The SDK's resource base class: which provider object each kind gets (the per-kind module whose
// exports Pulumi can store as a require), and the stack-trace limit it lowers while registering.
import * as pulumi from "@pulumi/pulumi";
import { declarations } from "../../../provider/resources";
import type { Kind } from "../../../provider/api/kinds";
import { dynamicProvider } from "../../../sdk/nodejs/internal/dynamicProvider";
import * as txmail from "../../../sdk/nodejs";

pulumi.runtime.setMocks(
  {
    newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    call: (args) => args.inputs,
  },
  "proj",
  "stack",
  false,
);

const camel = (kind: string) => kind[0]!.toLowerCase() + kind.slice(1);

describe("dynamicProvider", () => {
  it.each(Object.keys(declarations))("gives %s the whole exports of provider/kinds/<kind>", (kind) => {
    const mod = require(`../../../provider/kinds/${camel(kind)}`);
    expect(dynamicProvider(kind as Kind)).toBe(mod);
    for (const m of ["configure", "check", "diff", "create", "read", "update", "delete"]) {
      expect(typeof mod[m]).toBe("function");
    }
  });
});

/** Waits for a resource's registration (and its provider's serialization) to finish. */
const registered = (r: pulumi.CustomResource) => new Promise((resolve) => r.id.apply(resolve));

describe("TxmailResource", () => {
  const routeArgs = { name: "support", url: "https://example.com/in" };

  it("restores Error.stackTraceLimit after registering", async () => {
    const before = Error.stackTraceLimit;
    const r = new txmail.Route("r1", routeArgs);
    expect(Error.stackTraceLimit).toBe(before);
    await registered(r);
  });

  it.each([
    ["a parent that is not a resource", { parent: {} as pulumi.Resource }, /parent is not a valid Resource/],
    [
      "`providers` on a custom resource",
      { providers: {} } as pulumi.CustomResourceOptions,
      /Do not supply 'providers'/,
    ],
  ])("rejects %s synchronously, with a stack that points at the caller", (_what, opts, message) => {
    const before = Error.stackTraceLimit;
    let caught: unknown;
    try {
      new txmail.Route("r2", routeArgs, opts);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).stack).toContain("txmailResource.test.ts");
    expect(Error.stackTraceLimit).toBe(before);
  });

  it("keeps promise stack traces when PULUMI_DEBUG_PROMISE_LEAKS asks for them", async () => {
    const seen: number[] = [];
    const original = Error.prepareStackTrace;
    // Record the limit in force whenever a stack is formatted during construction.
    Error.prepareStackTrace = (err, frames) => {
      seen.push(Error.stackTraceLimit);
      return original ? original(err, frames) : String(err);
    };
    try {
      process.env.PULUMI_DEBUG_PROMISE_LEAKS = "true";
      const r3 = new txmail.Route("r3", routeArgs);
      const debugLimits = seen.splice(0);
      delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
      const r4 = new txmail.Route("r4", routeArgs);
      const defaultLimits = seen.splice(0);
      await Promise.all([registered(r3), registered(r4)]);

      expect(debugLimits.filter((l) => l === 0)).toHaveLength(0);
      // By default the per-property promise traces are formatted with the limit at 0 (no frames).
      expect(defaultLimits.filter((l) => l === 0).length).toBeGreaterThan(10);
    } finally {
      Error.prepareStackTrace = original;
      delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    }
  });
});
