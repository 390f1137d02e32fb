// A preview that passes means an up that can run: the provider configuration (stack config,
// environment, a resource's `connection`) is checked at preview, each message naming the setting and
// the rule, without calling the service (the emulator's counters stay at zero: preview cannot write,
// and the check does not even read).
import * as path from "node:path";
import { createTestStack, type TestStack } from "./harness";
import { startService, type TestService } from "./service";
import { controlClient } from "./control";

jest.setTimeout(10 * 60_000);

const route = { name: "in", url: "https://example.com/in", recipient: "in@mail.example.com" };

let svc: TestService;
const stacks: TestStack[] = [];

beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  for (const s of stacks) await s.dispose();
  await svc?.close();
});

async function stack(config: Record<string, string | undefined>, env: Record<string, string> = {}) {
  const good = svc.config();
  const merged = Object.fromEntries(
    Object.entries({ ...Object.fromEntries(Object.entries(good).map(([k, v]) => [k, v.value])), ...config })
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([k, v]) => [k, { value: v, secret: k === "txmail:apiKey" }]),
  );
  const s = await createTestStack({
    programDir: path.join(__dirname, "programs", "one"),
    name: "badconfig",
    config: { ...merged, kind: { value: "Route" }, args: { value: JSON.stringify(route) } },
    env,
  });
  stacks.push(s);
  return s;
}

/** The preview's failure text, or "passed". */
const previewOutcome = (s: TestStack) =>
  s.preview().then(
    () => "passed",
    (e: unknown) => String(e),
  );

// [case, stack config (undefined removes a setting), environment, expected message]
const cases: Array<[string, Record<string, string | undefined>, Record<string, string>, RegExp]> = [
  [
    "account id not an id",
    { "txmail:accountId": "not-a-uuid" },
    {},
    /txmail:accountId: must be an account id \(8-4-4-4-12 hexadecimal digits\), got 'not-a-uuid'/,
  ],
  [
    "base URL not a URL",
    { "txmail:baseUrl": "htp:/bad url" },
    {},
    /txmail:baseUrl: must be an http\(s\) URL such as https:\/\/api\.ahasend\.com, got 'htp:\/bad url'/,
  ],
  ["base URL without a host", { "txmail:baseUrl": "https://" }, {}, /txmail:baseUrl: must be an http\(s\) URL/],
  [
    "no API key anywhere",
    { "txmail:apiKey": undefined },
    {},
    /txmail:apiKey: not set; set it with `pulumi config set --secret txmail:apiKey …` or the TXMAIL_API_KEY environment variable/,
  ],
  ["no account id anywhere", { "txmail:accountId": undefined }, {}, /txmail:accountId: not set/],
  [
    "account id from the environment",
    { "txmail:accountId": undefined },
    { TXMAIL_ACCOUNT_ID: "12345" },
    /TXMAIL_ACCOUNT_ID: must be an account id/,
  ],
  [
    "base URL from the environment",
    { "txmail:baseUrl": undefined },
    { TXMAIL_BASE_URL: "ftp://example.com" },
    /TXMAIL_BASE_URL: must be an http\(s\) URL/,
  ],
];

describe("provider configuration is checked at preview", () => {
  it.each(cases)("%s", async (_case, config, env, expected) => {
    const s = await stack(config, env);
    await controlClient(svc).resetCounters();
    const outcome = await previewOutcome(s);
    expect(outcome).toMatch(expected);
    const counters = await controlClient(svc).counters();
    expect(counters.reads + counters.writes).toBe(0);
  });

  it("names a bad `connection` field of a resource", async () => {
    const s = await stack({});
    await s.stack.setConfig("args", {
      value: JSON.stringify({ ...route, connection: { accountId: svc.accountId, baseUrl: "htp:/bad url" } }),
    });
    expect(await previewOutcome(s)).toMatch(/connection\.baseUrl[^\n]*must be an http\(s\) URL/);
  });

  it("passes a good configuration, and config wins over a bad environment", async () => {
    const s = await stack({}, { TXMAIL_ACCOUNT_ID: "not-a-uuid", TXMAIL_BASE_URL: "htp:/x" });
    expect(await previewOutcome(s)).toBe("passed");
  });
});
