// api-key-broad-scopes: `…:all`, write/delete-like verbs, malformed scopes and the allowed set, one
// finding per key (most severe first); scopes the objects managed with a key need are its job.
import { KEY_SCOPES_DEFAULTS, keyScopeFindings, validateKeyScopes } from "../../../policy/rules/keyScopes";
import { unknownCheckingProxy } from "@pulumi/policy";
import { type StackCall, runStack, UNKNOWN } from "./harness";

const withScopes = (scopes: unknown, extra: Partial<StackCall> = {}): StackCall => ({
  kind: "ApiKey",
  name: "sender",
  props: { label: "sender", scopes },
  ...extra,
});
const messages = async (calls: StackCall[], config?: Record<string, unknown>) =>
  (await runStack(validateKeyScopes, calls, config)).map((m) => m.message);
/** How many scopes of a key are reported under `config`. */
const count = (scopes: unknown, config: Record<string, unknown> = {}) =>
  keyScopeFindings(unknownCheckingProxy({ scopes }), config).length;

describe("api-key-broad-scopes", () => {
  it.each([
    ["messages:send:all", /reaches every domain/, /\(use 'messages:send:<your-domain>'\)/],
    ["routes:write:all", /reaches every domain and grants 'write'/, /use 'routes:write:<your-domain>'/],
    ["webhooks:delete:all", /grants 'delete'/, /webhooks:delete:<your-domain>/],
    ["routes:write:mail.example.com", /grants 'write'/, /Give each key only what it uses/],
    ["domains:write", /grants 'write'/, /Give each key only/],
    ["api-keys:delete", /grants 'delete'/, /Give each key only/],
    ["suppressions:wipe", /grants 'wipe'/, /Give each key only/],
    ["accounts:members:add", /grants 'add'/, /Give each key only/],
    ["sub-accounts:suspend", /grants 'suspend'/, /Give each key only/],
    ["sub-account-api-keys:write", /grants 'write'/, /Give each key only/],
  ])("reports %s, naming the key, the scope and the fix", async (scope, why, fix) => {
    const [m, ...rest] = await messages([withScopes(["messages:send:mail.example.com", scope])]);
    expect(rest).toEqual([]);
    expect(m).toContain(`ApiKey 'sender': 1 scope broader than it needs: '${scope}'`);
    expect(m).toMatch(why);
    expect(m).toMatch(fix);
    expect(m).toContain("api-key-broad-scopes.allowedScopes");
  });

  it("reports every broad scope of a key in one finding on that key, most severe first", async () => {
    const scopes = ["messages:send:all", "domains:write", "routes:write:all", "routes:read:all", "admin"];
    const found = await runStack(validateKeyScopes, [withScopes(scopes)]);
    expect(found).toHaveLength(1);
    expect(found[0].urn).toMatch(/::sender$/);
    const order = ["'admin'", "'routes:write:all'", "'domains:write'", "'messages:send:all'", "'routes:read:all'"];
    const at = order.map((s) => found[0].message.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(found[0].message).toContain("5 scopes broader than they need");
  });

  it("does not report what the objects managed with the key need, and still reports the rest", async () => {
    const bootstrap = withScopes(
      [
        "domains:read",
        "domains:write",
        "domains:delete:mail.acme.example.com",
        "webhooks:write:all",
        "webhooks:read:all",
      ],
      { kind: "SubAccountApiKey", name: "acme-bootstrap" },
    );
    const domain = { kind: "Domain", name: "acme-domain", props: { domain: "mail.acme.example.com" } };
    const hook = { kind: "Webhook", name: "acme-webhook", props: { scope: "global", url: "https://x.example.com" } };
    // Managed with the key: its needs are its job.
    expect(
      await messages([
        bootstrap,
        { ...domain, managedWith: "acme-bootstrap" },
        { ...hook, managedWith: "acme-bootstrap" },
      ]),
    ).toEqual([]);
    // The webhook is gone: its scopes are broad again; the domain's still are not.
    const [m, ...rest] = await messages([bootstrap, { ...domain, managedWith: "acme-bootstrap" }]);
    expect(rest).toEqual([]);
    expect(m).toMatch(/2 scopes broader than they need: 'webhooks:write:all' [^;]*; 'webhooks:read:all'/);
    expect(m).not.toContain("domains:");
    // Not managed with the key (no connection dependency): nothing is justified.
    expect(await messages([bootstrap, domain, hook])).toEqual([expect.stringContaining("4 scopes")]);
  });

  it("skips a key while an object managed with it has inputs unknown at preview", async () => {
    const key = withScopes(["routes:write:all"], { kind: "SubAccountApiKey", name: "k" });
    const route = { kind: "Route", name: "r", props: { recipient: UNKNOWN }, managedWith: "k" };
    expect(await messages([key, route])).toEqual([]);
    expect(await messages([key, { ...route, props: { recipient: "" } }])).toEqual([]);
    expect(await messages([key, { ...route, props: { recipient: "a@mail.example.com" } }])).toHaveLength(1);
  });

  it.each([
    "messages:send:mail.example.com",
    "messages:read:mail.example.com",
    "domains:read",
    "accounts:read",
    "api-keys:read",
    "statistics-transactional:read:mail.example.com",
    "sub-accounts:usage",
  ])("accepts %s by default", async (scope) => {
    expect(await messages([withScopes([scope])])).toEqual([]);
  });

  it.each(["messages:send:ALL", "messages:send", "routes:write:Mail.Example.com", "admin", ""])(
    "reports the malformed scope %j with the shared grammar's message",
    async (scope) => {
      const [m] = await messages([withScopes([scope])]);
      expect(m).toContain("ApiKey 'sender': 1 scope broader than it needs: scopes[0]:");
      expect(m).toMatch(/the provider rejects it at apply/);
    },
  );

  it("reports non-string scopes", async () => {
    expect(await messages([withScopes([7])])).toEqual([expect.stringContaining("scopes[0]: number 7 is not a scope")]);
  });

  it("reports a repeated scope once", () => {
    expect(count(["domains:write", "domains:write"])).toBe(1);
  });

  it("defaults: every :all scope, and write/delete plus the verbs acting like them", () => {
    expect(KEY_SCOPES_DEFAULTS).toEqual({
      allowedScopes: [],
      flagAllScopes: true,
      flaggedVerbs: ["write", "delete", "wipe", "add", "update", "remove", "suspend"],
    });
  });

  it.each([
    [{ allowedScopes: ["messages:send:all"] }, ["messages:send:all"], 0],
    [{ allowedScopes: ["routes:write:{domain}"] }, ["routes:write:mail.example.com", "routes:write:all"], 1],
    [{ flagAllScopes: false }, ["messages:read:all", "routes:write:all"], 1],
    [{ flaggedVerbs: [] }, ["domains:write", "messages:read:all"], 1],
    [{ flaggedVerbs: [], flagAllScopes: false }, ["domains:write", "messages:read:all"], 0],
    [{ flaggedVerbs: ["read"], flagAllScopes: false }, ["domains:read"], 1],
    [{ allowedScopes: "messages:send:all" }, ["messages:send:all"], 1], // wrong type: default applies
  ])("config %j changes the outcome for %j", (config, scopes, n) => {
    expect(count(scopes, config)).toBe(n);
  });

  it("reads the policy config", async () => {
    expect(await messages([withScopes(["messages:send:all"])], { allowedScopes: ["messages:send:all"] })).toEqual([]);
  });

  it("applies to sub-account keys and skips unknown scopes", async () => {
    const call = { kind: "SubAccountApiKey", name: "t", props: { scopes: [UNKNOWN, "domains:write"] } };
    expect(await messages([call])).toEqual([expect.stringContaining("SubAccountApiKey 't': 1 scope")]);
    expect(await messages([withScopes(UNKNOWN)])).toEqual([]);
  });
});
