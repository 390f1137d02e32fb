// The provider configuration's rules (provider/core/connection.ts), every case: what a preview
// reports, naming the setting, where its value came from and the rule. test/e2e/badConfig.test.ts
// shows a few of them through the real engine, on the resource they concern.
import { connectionProblems } from "../../../provider/core/connection";

const GOOD = {
  apiKey: "txmail-sk-good",
  accountId: "11111111-1111-4111-8111-111111111111",
  baseUrl: "http://127.0.0.1:4000",
};
const ENV = ["TXMAIL_API_KEY", "TXMAIL_ACCOUNT_ID", "TXMAIL_BASE_URL"] as const;

let saved: Record<string, string | undefined>;
beforeEach(() => {
  saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  for (const k of ENV) delete process.env[k];
});
afterEach(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

describe("provider configuration problems", () => {
  it.each<[string, Partial<typeof GOOD>, Record<string, string>, RegExp]>([
    [
      "base URL not a URL",
      { baseUrl: "htp:/bad url" },
      {},
      /^txmail:baseUrl: must be an http\(s\) URL such as https:\/\/api\.ahasend\.com, got 'htp:\/bad url'$/,
    ],
    ["base URL without a host", { baseUrl: "https://" }, {}, /^txmail:baseUrl: must be an http\(s\) URL/],
    [
      "no API key anywhere",
      { apiKey: undefined },
      {},
      /^txmail:apiKey: not set; set it with `pulumi config set --secret txmail:apiKey …` or the TXMAIL_API_KEY environment variable$/,
    ],
    ["no account id anywhere", { accountId: undefined }, {}, /^txmail:accountId: not set/],
    [
      "account id from the environment",
      { accountId: undefined },
      { TXMAIL_ACCOUNT_ID: "12345" },
      /^TXMAIL_ACCOUNT_ID: must be an account id \(8-4-4-4-12 hexadecimal digits\), got '12345'$/,
    ],
    [
      "base URL from the environment",
      { baseUrl: undefined },
      { TXMAIL_BASE_URL: "ftp://example.com" },
      /^TXMAIL_BASE_URL: must be an http\(s\) URL/,
    ],
    [
      "an API key with white space around it",
      { apiKey: " txmail-sk-x " },
      {},
      /^txmail:apiKey: must not start or end with white space$/,
    ],
  ])("%s", (_case, config, env, expected) => {
    Object.assign(process.env, env);
    const problems = connectionProblems(undefined, { ...GOOD, ...config });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(expected);
  });

  it("finds nothing in a good configuration, and config wins over a bad environment", () => {
    expect(connectionProblems(undefined, GOOD)).toEqual([]);
    process.env.TXMAIL_BASE_URL = "ftp://example.com";
    expect(connectionProblems(undefined, GOOD)).toEqual([]);
  });

  it("names a resource's own connection field before config", () => {
    expect(connectionProblems({ accountId: "nope" }, GOOD)).toEqual([
      "connection.accountId: must be an account id (8-4-4-4-12 hexadecimal digits), got 'nope'",
    ]);
  });

  it("never echoes an API key", () => {
    expect(connectionProblems(undefined, { ...GOOD, apiKey: " txmail-sk-secret " }).join()).not.toContain("secret");
  });
});
