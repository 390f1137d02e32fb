// The Tenant's inputs as Construct receives them: the shape stays plain (the Tenant reads which
// routes, webhooks, … exist), and secrets, dependencies and unknowns travel on the leaves.
import * as pulumi from "@pulumi/pulumi";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { constructInputs, requirePlain, type Json } from "../../../native/constructInputs";

type Inner = {
  promise(withUnknowns?: boolean): Promise<unknown>;
  isKnown: Promise<boolean>;
  isSecret: Promise<boolean>;
  allResources(): Promise<Set<pulumi.Resource>>;
};
const inner = (o: unknown) => o as Inner;
const secret = (value: Json): Json => ({ [rpc.specialSigKey]: rpc.specialSecretSig, value });

async function describeLeaf(o: unknown) {
  expect(pulumi.Output.isInstance(o)).toBe(true);
  const i = inner(o);
  const deps = await Promise.all([...(await i.allResources())].map((r) => inner(r.urn).promise()));
  return { value: await i.promise(), known: await i.isKnown, secret: await i.isSecret, deps: deps.sort() };
}

const ROUTE_URN = "urn:pulumi:dev::p::txmail:index:Route::r";

describe("constructInputs", () => {
  it("keeps plain inputs plain, nested records included", () => {
    const args = constructInputs(
      {
        website: "acme.example.com",
        routes: { support: { name: "support", url: "https://acme.example.com/in", enabled: true } },
        bootstrapKey: { ipAllowList: ["127.0.0.1", "203.0.113.0/24"] },
      },
      new Map(),
    );
    expect(args).toEqual({
      website: "acme.example.com",
      routes: { support: { name: "support", url: "https://acme.example.com/in", enabled: true } },
      bootstrapKey: { ipAllowList: ["127.0.0.1", "203.0.113.0/24"] },
    });
  });

  it("pushes a secret object down to its leaves, so its entries stay readable", async () => {
    const args = constructInputs(
      { routes: secret({ support: { name: "support", url: "https://x.example" } }) },
      new Map(),
    );
    const routes = args.routes as Record<string, Record<string, unknown>>;
    expect(Object.keys(routes)).toEqual(["support"]);
    expect(await describeLeaf(routes.support!.url)).toEqual({
      value: "https://x.example",
      known: true,
      secret: true,
      deps: [],
    });
  });

  it("makes a list with a secret element one secret list", async () => {
    const args = constructInputs({ bootstrapKey: { ipAllowList: ["127.0.0.1", secret("10.0.0.1")] } }, new Map());
    const list = (args.bootstrapKey as Record<string, unknown>).ipAllowList;
    expect(await describeLeaf(list)).toMatchObject({ value: ["127.0.0.1", "10.0.0.1"], secret: true });
  });

  it("gives every leaf of an input the input's dependencies", async () => {
    const args = constructInputs(
      { webhooks: { events: { name: "events", url: "https://x.example/hook" } } },
      new Map([["webhooks", [ROUTE_URN]]]),
    );
    const events = (args.webhooks as Record<string, Record<string, unknown>>).events!;
    expect(await describeLeaf(events.url)).toEqual({
      value: "https://x.example/hook",
      known: true,
      secret: false,
      deps: [ROUTE_URN],
    });
  });

  it("turns an unknown value into an unknown output, and an output value into its parts", async () => {
    const args = constructInputs(
      {
        website: rpc.unknownValue,
        displayName: {
          [rpc.specialSigKey]: rpc.specialOutputValueSig,
          value: "Acme",
          secret: true,
          dependencies: [ROUTE_URN],
        },
      },
      new Map(),
    );
    expect(await describeLeaf(args.website)).toMatchObject({ known: false, secret: false });
    expect(await describeLeaf(args.displayName)).toEqual({
      value: "Acme",
      known: true,
      secret: true,
      deps: [ROUTE_URN],
    });
  });
});

describe("requirePlain", () => {
  it("names the field whose shape is not known", () => {
    const args = constructInputs({ routes: rpc.unknownValue }, new Map());
    expect(() => requirePlain("txmail:index:Tenant 'acme'", "routes", args.routes)).toThrow(
      /^txmail:index:Tenant 'acme': routes must be an object known when the program runs/,
    );
    expect(() => requirePlain("T", "routes", "text")).toThrow(/routes must be an object/);
  });

  it("accepts an absent field and a plain object", () => {
    expect(() => requirePlain("T", "routes", undefined)).not.toThrow();
    expect(() => requirePlain("T", "routes", { a: {} })).not.toThrow();
  });
});
