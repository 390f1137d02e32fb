// Bad input fails at check with a message naming the field and the rule, and nothing reaches the
// service. Each case runs `pulumi up`, not a preview: an up would create the resource if check let
// the input through (a preview never writes, so "no writes after a preview" could not fail), and
// the emulator's counters must show no request at all, reads included — the engine stopped at
// check, before any provider create or read could run.
import * as path from "node:path";
import { createTestStack, FACES, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";
import { controlClient } from "../../support/control";

jest.setTimeout(10 * 60_000);

const SUB = "7b0c8a0e-3f6e-4c38-9a51-0c0f3f1d2a11";
const hosts = (n: number) => Array.from({ length: n }, (_, i) => `10.1.${i >> 8}.${i & 255}`);

// [case, kind, args, expected field, expected rule text]
const cases: Array<[string, string, Record<string, unknown>, string, RegExp]> = [
  [
    "bad CIDR",
    "ApiKey",
    { label: "k", scopes: ["messages:send:all"], ipAllowList: ["10.0.0.300/8"] },
    "ipAllowList[0]",
    /not an IP address/,
  ],
  [
    "prefix too long",
    "ApiKey",
    { label: "k", scopes: ["messages:send:all"], ipAllowList: ["10.0.0.0/40"] },
    "ipAllowList[0]",
    /prefix length/,
  ],
  [
    "allow-all IPv4",
    "ApiKey",
    { label: "k", scopes: ["messages:send:all"], ipAllowList: ["0.0.0.0/0"] },
    "ipAllowList[0]",
    /allows every IPv4 address/,
  ],
  [
    "allow-all IPv6 spelling",
    "SubAccountApiKey",
    { subAccountId: SUB, label: "k", scopes: ["messages:send:all"], ipAllowList: ["0:0::/0"] },
    "ipAllowList[0]",
    /allows every IPv6 address/,
  ],
  [
    ">100 entries",
    "ApiKey",
    { label: "k", scopes: ["messages:send:all"], ipAllowList: hosts(101) },
    "ipAllowList",
    /at most 100/,
  ],
  ["unknown scope", "ApiKey", { label: "k", scopes: ["emails:send:all"] }, "scopes[0]", /not a scope of the service/],
  [
    "malformed domain scope",
    "ApiKey",
    { label: "k", scopes: ["routes:write:not a domain"] },
    "scopes[0]",
    /not a valid domain name/,
  ],
  ["no scopes", "ApiKey", { label: "k", scopes: [] }, "scopes", /at least one scope/],
  ["empty label", "ApiKey", { label: "", scopes: ["messages:send:all"] }, "label", /must not be empty/],
  ["bad URL", "Webhook", { name: "w", url: "ftp://example.com/x" }, "url", /Invalid URL|url/i],
  ["empty name", "Route", { name: "  ", url: "https://example.com/in", recipient: "" }, "name", /must not be blank/],
  [
    "wrong type",
    "SubAccount",
    { name: "n", website: "shop.example.com", monthlyCredit: "lots" },
    "monthlyCredit",
    /expected number/,
  ],
  ["website not a host", "SubAccount", { name: "n", website: "not a host" }, "website", /fully qualified host name/],
  ["scoped without domains", "SmtpCredential", { name: "s", scope: "scoped" }, "domains", /at least one domain/],
];

/**
 * The cases the native face runs too: one per kind, the wrong type (a value that crosses the wire as
 * a Struct) and the oversized list. Every rule is the same code on both faces (provider/core's check);
 * what the native face changes is how a failure reaches the engine (the plugin's CheckFailure list)
 * and how inputs cross the wire, which these cover without paying 14 more `pulumi up`s.
 */
const NATIVE_CASES = new Set([
  "bad CIDR",
  "allow-all IPv6 spelling",
  ">100 entries",
  "bad URL",
  "empty name",
  "wrong type",
  "scoped without domains",
]);

let svc: TestService;
let t: TestStack;

describe.each(FACES)("%s face", (face) => {
  beforeAll(async () => {
    svc = await startService();
    t = await createTestStack({
      programDir: path.join(__dirname, "programs", "one"),
      name: `bad-${face}`,
      face,
      config: { ...svc.config(), kind: { value: "ApiKey" }, args: { value: "{}" } },
    });
  });

  afterAll(async () => {
    await t?.dispose();
    await svc?.close();
  });

  describe("bad input fails at check, naming the field and the rule; nothing reaches the service", () => {
    it.each(face === "dynamic" ? cases : cases.filter(([name]) => NATIVE_CASES.has(name)))(
      "%s",
      async (_name, kind, args, field, rule) => {
        await t.stack.setConfig("kind", { value: kind });
        await t.stack.setConfig("args", { value: JSON.stringify(args) });
        const control = controlClient(svc);
        await control.resetCounters();
        let message = "";
        try {
          await t.up();
        } catch (err) {
          message = String((err as Error).message);
        }
        expect(await control.counters()).toEqual({ reads: 0, writes: 0, total: 0, endpoints: {}, keys: {} });
        expect(message).toContain(`${field}: `);
        expect(message).toMatch(rule);
      },
    );
  });
});
