// The SDK's face switch (sdk/nodejs/internal/face.ts): the same classes register dynamic resources by
// default and `txmail:index:<Kind>` custom resources when stack config txmail:face (else the
// TXMAIL_FACE environment variable) says native, or when given an explicit txmail.Provider.
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "../../../sdk/nodejs";

const registered: Array<{ type: string; name: string; inputs: Record<string, unknown>; provider?: string }> = [];

pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider });
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: (args) => args.inputs,
  },
  "proj",
  "stack",
  false,
);

const routeArgs = { name: "support", url: "https://example.com/in" };
/** Registers a route and waits for its registration; returns what the engine got. */
async function route(name: string, opts?: pulumi.CustomResourceOptions, connection?: txmail.ConnectionArgs) {
  const r = new txmail.Route(name, { ...routeArgs, connection }, opts);
  await new Promise((resolve) => r.id.apply(resolve));
  return registered.find((x) => x.name === name)!;
}

afterEach(() => {
  delete process.env.TXMAIL_FACE;
  pulumi.runtime.setConfig("txmail:face", "");
});

it("registers the dynamic resource by default, as before", async () => {
  const r = await route("dyn");
  expect(r.type).toBe("pulumi-nodejs:dynamic/txmail:Route");
  expect(r.inputs).toHaveProperty("__provider");
  expect(r.inputs.__urn).toMatch(/pulumi-nodejs:dynamic\/txmail:Route::dyn$/);
});

it("registers txmail:index:<Kind> with TXMAIL_FACE=native: no serialized provider, identity or salt", async () => {
  process.env.TXMAIL_FACE = "native";
  const r = await route("nat", undefined, { apiKey: "k-123456789", accountId: "a" });
  expect(r.type).toBe("txmail:index:Route");
  expect(Object.keys(r.inputs).filter((k) => k.startsWith("__"))).toEqual([]);
  expect(r.inputs).toMatchObject({ name: "support", url: "https://example.com/in" });
});

it("takes stack config txmail:face over the environment", async () => {
  process.env.TXMAIL_FACE = "dynamic";
  pulumi.runtime.setConfig("txmail:face", "native");
  expect((await route("cfg")).type).toBe("txmail:index:Route");
});

it("serves a resource given an explicit txmail.Provider natively, whatever the face", async () => {
  const eu = new txmail.Provider("eu", { apiKey: "k", accountId: "00000000-0000-4000-8000-000000000001" });
  const r = await route("explicit", { provider: eu });
  expect(r.type).toBe("txmail:index:Route");
  expect(r.provider).toMatch(/pulumi:providers:txmail::eu::/);
});

it.each([
  ["txmail:face", () => pulumi.runtime.setConfig("txmail:face", "yaml")],
  ["TXMAIL_FACE", () => (process.env.TXMAIL_FACE = "Native")],
])("rejects a face that is neither, naming %s and the rule", (where, set) => {
  set();
  const [limit, format] = [Error.stackTraceLimit, Error.prepareStackTrace];
  expect(() => new txmail.Route("bad", routeArgs)).toThrow(`${where}: must be "dynamic" or "native", got '`);
  // What registering lowers or replaces for its own duration is put back.
  expect([Error.stackTraceLimit, Error.prepareStackTrace]).toEqual([limit, format]);
});
