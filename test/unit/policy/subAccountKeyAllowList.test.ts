// sub-account-key-requires-allow-list: missing or empty lists on keys handed to tenants.
import { validateSubAccountKeyAllowList } from "../../../policy/rules/subAccountKeyAllowList";
import { run, UNKNOWN } from "./harness";

const subKey = (props: Record<string, unknown>, config?: Record<string, unknown>) => ({
  kind: "SubAccountApiKey",
  name: "acme-bootstrap",
  props: { subAccountId: "sa-1", label: "bootstrap", scopes: [], ...props },
  config,
});

describe("sub-account-key-requires-allow-list", () => {
  it.each([
    [{}, "has no ipAllowList"],
    [{ ipAllowList: null }, "has no ipAllowList"],
    [{ ipAllowList: [] }, "has an empty ipAllowList"],
  ])("reports %j, naming the key and the fix", async (props, what) => {
    const [m, ...rest] = await run(validateSubAccountKeyAllowList, subKey(props));
    expect(rest).toEqual([]);
    expect(m).toContain(`SubAccountApiKey 'acme-bootstrap' ${what}`);
    expect(m).toMatch(/set ipAllowList to the CIDR blocks its users send from/);
  });

  it.each([
    [{ ipAllowList: ["203.0.113.0/24"] }],
    [{ ipAllowList: UNKNOWN }], // may be set once known
    [{ ipAllowList: [UNKNOWN] }],
    [{ ipAllowList: ["10.1"] }], // set, though invalid: the entries rule reports it
    [{ ipAllowList: "203.0.113.0/24" }],
  ])("accepts %j", async (props) => {
    expect(await run(validateSubAccountKeyAllowList, subKey(props))).toEqual([]);
  });

  it("leaves the account's own keys alone unless includeApiKeys is set", async () => {
    const apiKey = { kind: "ApiKey", name: "sender", props: { scopes: [] } };
    expect(await run(validateSubAccountKeyAllowList, apiKey)).toEqual([]);
    expect(await run(validateSubAccountKeyAllowList, { ...apiKey, config: { includeApiKeys: true } })).toEqual([
      expect.stringContaining("ApiKey 'sender' has no ipAllowList"),
    ]);
  });

  it("ignores webhooks and routes", async () => {
    expect(await run(validateSubAccountKeyAllowList, { kind: "Webhook", props: {} })).toEqual([]);
  });
});
