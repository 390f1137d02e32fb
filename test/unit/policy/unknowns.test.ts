// Preview values that are not known yet: what @pulumi/policy hands a rule, and that no rule
// crashes on them (or on inputs of the wrong type), with or without the server's proxy.
import { unknownCheckingProxy, UnknownValueError } from "@pulumi/policy";
import * as policyProxy from "@pulumi/policy/proxy";
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { policies } from "../../../policy/policies";
import { UNKNOWN_SENTINELS } from "../../../policy/lib/unknowns";
import { type Call, runPolicy, UNKNOWN } from "./harness";

describe("how @pulumi/policy presents unknowns", () => {
  it("the pack's sentinels are exactly @pulumi/policy's", () => {
    const runtime = Object.entries(policyProxy as Record<string, unknown>)
      .filter(([name]) => /^unknown\w+Value$/.test(name))
      .map(([, value]) => value);
    expect(new Set(runtime)).toEqual(UNKNOWN_SENTINELS);
  });

  it("the Node SDK's unknown is the string sentinel the harness uses", () => {
    expect(rpc.unknownValue).toBe(UNKNOWN);
  });

  it("the server's proxy throws on reading an unknown property or element", () => {
    const props = unknownCheckingProxy({ ipAllowList: UNKNOWN, scopes: ["domains:read", UNKNOWN] });
    expect(() => props.ipAllowList).toThrow(UnknownValueError);
    expect(() => props.scopes[1]).toThrow(UnknownValueError);
    expect(() => props.scopes.map((s: string) => s)).toThrow(UnknownValueError);
  });
});

const validations = policies.map((p) => [p.name, (call: Call) => runPolicy(p, call)] as const);
const kinds = ["ApiKey", "SubAccountApiKey", "Webhook", "Route"];
const oddProps: Record<string, unknown>[] = [
  {},
  { ipAllowList: UNKNOWN, scopes: UNKNOWN, url: UNKNOWN, label: UNKNOWN },
  { ipAllowList: [UNKNOWN, UNKNOWN], scopes: [UNKNOWN] },
  { ipAllowList: [UNKNOWN, "0.0.0.0/0"], scopes: ["domains:read", UNKNOWN] },
  { ipAllowList: null, scopes: null, url: null },
  { ipAllowList: 42, scopes: "domains:read", url: ["https://x.example.com"] },
  { ipAllowList: { a: 1 }, scopes: { b: 2 }, url: { c: 3 } },
  { ipAllowList: [["0.0.0.0/0"], { x: 1 }, 7, true, null], scopes: [null, 1, ["x"]] },
  { ipAllowList: ["1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", "dd056dcd-154b-4c76-9bd3-c8f88648b5ff"] },
];

describe.each(validations)("%s", (_name, validate) => {
  it.each(kinds)("never throws on unknown or odd inputs of a %s", async (kind) => {
    for (const props of oddProps) {
      for (const raw of [false, true]) {
        await expect(validate({ kind, props, raw })).resolves.toBeInstanceOf(Array);
      }
    }
  });

  it("reports nothing when every input is unknown", async () => {
    for (const kind of kinds) {
      expect(await validate({ kind, props: { ipAllowList: UNKNOWN, scopes: UNKNOWN, url: UNKNOWN } })).toEqual([]);
    }
  });
});

it("reads raw sentinels (no proxy) the same way as proxied ones", async () => {
  const [, noAllowAll] = validations[0];
  for (const raw of [false, true]) {
    const props = { ipAllowList: [UNKNOWN, "::/0"] };
    expect(await noAllowAll({ kind: "ApiKey", props, raw })).toHaveLength(1);
  }
});
