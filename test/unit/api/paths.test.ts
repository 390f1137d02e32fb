// The paths built from the endpoint table (provider/api/paths.ts): named after their list and get
// endpoints, arguments in the template's order, each percent-encoded.
import { ENDPOINTS } from "../../../provider/api/endpoints";
import { paths } from "../../../provider/api/paths";

const A = "/v2/accounts/acc";

describe("paths", () => {
  it("gives each list and get endpoint its path, the parameters in the template's order", () => {
    expect({
      apiKeys: paths.apiKeys("acc"),
      apiKey: paths.apiKey("acc", "k"),
      subAccounts: paths.subAccounts("acc"),
      subAccount: paths.subAccount("acc", "s"),
      subAccountApiKeys: paths.subAccountApiKeys("acc", "s"),
      subAccountApiKey: paths.subAccountApiKey("acc", "s", "k"),
      domains: paths.domains("acc"),
      domain: paths.domain("acc", "mail.example.com"),
      routes: paths.routes("acc"),
      route: paths.route("acc", "r"),
      webhooks: paths.webhooks("acc"),
      webhook: paths.webhook("acc", "w"),
      smtpCredentials: paths.smtpCredentials("acc"),
      smtpCredential: paths.smtpCredential("acc", "c"),
      suppressions: paths.suppressions("acc"),
      members: paths.members("acc"),
    }).toEqual({
      apiKeys: `${A}/api-keys`,
      apiKey: `${A}/api-keys/k`,
      subAccounts: `${A}/sub-accounts`,
      subAccount: `${A}/sub-accounts/s`,
      subAccountApiKeys: `${A}/sub-accounts/s/api-keys`,
      subAccountApiKey: `${A}/sub-accounts/s/api-keys/k`,
      domains: `${A}/domains`,
      domain: `${A}/domains/mail.example.com`,
      routes: `${A}/routes`,
      route: `${A}/routes/r`,
      webhooks: `${A}/webhooks`,
      webhook: `${A}/webhooks/w`,
      smtpCredentials: `${A}/smtp-credentials`,
      smtpCredential: `${A}/smtp-credentials/c`,
      suppressions: `${A}/suppressions`,
      members: `${A}/members`,
    });
  });

  it("has a path for every list and get endpoint of the table", () => {
    const reads = Object.keys(ENDPOINTS).flatMap((name) => {
      const m = /^(?:list|get)(.)(.*)$/.exec(name);
      return m ? [m[1]!.toLowerCase() + m[2]!] : [];
    });
    expect(reads.filter((name) => typeof (paths as Record<string, unknown>)[name] !== "function")).toEqual([]);
  });

  it("percent-encodes what it fills in", () => {
    expect(paths.domain("a/b", "x y.example.com")).toBe("/v2/accounts/a%2Fb/domains/x%20y.example.com");
  });

  it("keeps the paths of the other endpoints", () => {
    expect([
      paths.ping(),
      paths.subAccountSuspend("acc", "s"),
      paths.subAccountUsage("acc"),
      paths.domainCheckDns("acc", "d"),
      paths.suppressionByAddress("acc", "a@example.com", "d"),
      paths.member("acc", "u"),
    ]).toEqual([
      "/v2/ping",
      `${A}/sub-accounts/s/suspend`,
      `${A}/sub-accounts/usage`,
      `${A}/domains/d/check-dns`,
      `${A}/suppressions?email=a%40example.com&domain=d`,
      `${A}/members/u`,
    ]);
  });
});
