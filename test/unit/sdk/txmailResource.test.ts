// The SDK's resource base class: which provider object each kind gets (the per-kind module whose
// exports Pulumi can store as a require), the stack-trace limit it lowers while registering, and the
// registration trace Pulumi records (the user's frames, none of the SDK's).
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

/** The stack trace Pulumi records for each resource registered while `fn` runs (Resource.stackTrace). */
function recordedTraces(fn: () => void): Array<Array<{ uri: string } | undefined>> {
  const resourceClass = pulumi.Resource as unknown as { stackTrace(skip: number): Array<{ uri: string } | undefined> };
  const original = resourceClass.stackTrace;
  const traces: Array<Array<{ uri: string } | undefined>> = [];
  resourceClass.stackTrace = function (skip) {
    const trace = original.call(this, skip + 1); // + this function's own frame

    traces.push(trace);
    return trace;
  };
  try {
    fn();
  } finally {
    resourceClass.stackTrace = original;
  }
  return traces;
}

describe("the registration trace Pulumi records", () => {
  const routeArgs = { name: "support", url: "https://example.com/in" };
  const sdkFrames = (trace: Array<{ uri: string } | undefined>) =>
    trace.filter((f) => f && /\/sdk\/nodejs\/|\/provider\//.test(f.uri));

  it.each([
    ["dynamic", {}],
    ["native", { provider: new txmail.Provider("eu", { apiKey: "k" }) }],
  ])("starts at the user's line, with no frame of the SDK (%s face)", async (_face, opts) => {
    let route: txmail.Route | undefined;
    // A named function: Pulumi reads no position from an anonymous function's frame.
    const recorded = recordedTraces(function makeRoute() {
      route = new txmail.Route("traced", routeArgs, opts);
    });
    // The route's, and on the dynamic face the stack salt's when this test runs first.
    expect(recorded.length).toBeGreaterThan(0);
    for (const trace of recorded) {
      expect(trace[0]?.uri).toMatch(/txmailResource\.test\.ts$/);
      expect(sdkFrames(trace)).toEqual([]);
    }
    await registered(route!);
  });

  it("gives a Tenant's resources the line that made the Tenant", async () => {
    let tenant: txmail.Tenant | undefined;
    // Native: under mocks, the dynamic face's providers of a linked checkout are serialized by value.
    process.env.TXMAIL_FACE = "native";
    const traces = recordedTraces(function makeTenant() {
      try {
        tenant = new txmail.Tenant("traced", { website: "traced.example.com" });
      } finally {
        delete process.env.TXMAIL_FACE;
      }
    });
    expect(traces.length).toBeGreaterThan(2);
    for (const trace of traces) {
      expect(trace[0]?.uri).toMatch(/txmailResource\.test\.ts$/);
      expect(sdkFrames(trace)).toEqual([]);
    }
    await new Promise((resolve) => tenant!.urn.apply(resolve));
  });

  it("puts back whatever formatted traces before", () => {
    const before = Error.prepareStackTrace;
    new txmail.Route("restored", routeArgs);
    expect(Error.prepareStackTrace).toBe(before);
  });
});
