// Every rule of the pack fires for both faces' type tokens: a resource registered through the native
// provider (`txmail:index:<Kind>`) gets exactly the findings the same resource gets as a dynamic one
// (`pulumi-nodejs:dynamic/txmail:<Kind>`). The e2e proof on the real engine is in test/e2e/policy.test.ts.
import { policies } from "../../../policy/policies";
import { nativeTypeToken } from "../../../provider/api/typeTokens";
import { type Call, runPolicy } from "./harness";

/** For each policy, one resource it reports (dynamic kind names; the native call swaps in the token). */
const violations: Record<string, Call> = {
  "ip-allow-list-no-allow-all": { kind: "ApiKey", props: { label: "k", scopes: [], ipAllowList: ["0.0.0.0/0"] } },
  "ip-allow-list-valid-entries": { kind: "ApiKey", props: { label: "k", scopes: [], ipAllowList: ["10.0.0.300"] } },
  "ip-allow-list-max-entries": {
    kind: "SubAccountApiKey",
    props: { label: "k", scopes: [], ipAllowList: Array.from({ length: 101 }, (_, i) => `10.1.0.${i}`) },
  },
  "ip-allow-list-broad-prefix": { kind: "ApiKey", props: { label: "k", scopes: [], ipAllowList: ["10.0.0.0/8"] } },
  "api-key-broad-scopes": { kind: "ApiKey", props: { label: "k", scopes: ["routes:write:all"] } },
  "sub-account-key-requires-allow-list": {
    kind: "SubAccountApiKey",
    props: { subAccountId: "sa-1", label: "bootstrap", scopes: [] },
  },
  "endpoint-https": { kind: "Webhook", props: { name: "w", url: "http://hooks.example.com/in" } },
};

describe("the pack on both faces' type tokens", () => {
  it("has a violating example for every policy", () => {
    expect(Object.keys(violations).sort()).toEqual(policies.map((p) => p.name).sort());
  });

  it.each(policies.map((p) => [p.name, p] as const))(
    "%s reports the native resource as the dynamic one",
    async (name, policy) => {
      const call = { ...violations[name]!, name: "it" };
      const dynamic = await runPolicy(policy, call);
      expect(dynamic.length).toBeGreaterThan(0);
      expect(await runPolicy(policy, { ...call, kind: nativeTypeToken(call.kind) })).toEqual(dynamic);
    },
  );

  it("ignores other packages' resources of the same kind name", async () => {
    for (const policy of policies) {
      const call = violations[policy.name]!;
      expect(await runPolicy(policy, { ...call, kind: `other:index:${call.kind}` })).toEqual([]);
    }
  });
});
