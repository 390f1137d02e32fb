// api-key-broad-scopes: `…:all`, write/delete-like verbs, malformed scopes, and the allowed set.
import { KEY_SCOPES_DEFAULTS, validateKeyScopes } from "../../../policy/rules/keyScopes";
import { run, UNKNOWN } from "./harness";

const withScopes = (scopes: unknown, config?: Record<string, unknown>) => ({
  kind: "ApiKey",
  name: "sender",
  props: { label: "sender", scopes },
  config,
});

describe("api-key-broad-scopes", () => {
  it.each([
    ["messages:send:all", /reaches every domain/, /use 'messages:send:<your-domain>' instead/],
    ["routes:write:all", /reaches every domain and grants 'write'/, /use 'routes:write:<your-domain>'/],
    ["webhooks:delete:all", /grants 'delete'/, /webhooks:delete:<your-domain>/],
    ["routes:write:mail.example.com", /grants 'write'/, /give it only to the key that needs it/],
    ["domains:write", /grants 'write'/, /give it only/],
    ["api-keys:delete", /grants 'delete'/, /give it only/],
    ["suppressions:wipe", /grants 'wipe'/, /give it only/],
    ["accounts:members:add", /grants 'add'/, /give it only/],
    ["sub-accounts:suspend", /grants 'suspend'/, /give it only/],
    ["sub-account-api-keys:write", /grants 'write'/, /give it only/],
  ])("reports %s, naming the key, the scope and the fix", async (scope, why, fix) => {
    const [m, ...rest] = await run(validateKeyScopes, withScopes(["messages:send:mail.example.com", scope]));
    expect(rest).toEqual([]);
    expect(m).toContain(`ApiKey 'sender': scopes[1]: '${scope}'`);
    expect(m).toMatch(why);
    expect(m).toMatch(fix);
    expect(m).toContain("api-key-broad-scopes.allowedScopes");
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
    expect(await run(validateKeyScopes, withScopes([scope]))).toEqual([]);
  });

  it.each(["messages:send:ALL", "messages:send", "routes:write:Mail.Example.com", "admin", ""])(
    "reports the malformed scope %j with the shared grammar's message",
    async (scope) => {
      const [m] = await run(validateKeyScopes, withScopes([scope]));
      expect(m).toContain("ApiKey 'sender': scopes[0]:");
      expect(m).toMatch(/the provider rejects it at apply/);
    },
  );

  it("reports non-string scopes", async () => {
    expect(await run(validateKeyScopes, withScopes([7]))).toEqual([
      expect.stringContaining("scopes[0]: number 7 is not a scope"),
    ]);
  });

  it("reports a repeated scope once", async () => {
    expect(await run(validateKeyScopes, withScopes(["domains:write", "domains:write"]))).toHaveLength(1);
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
  ])("config %j changes the outcome for %j", async (config, scopes, count) => {
    expect(await run(validateKeyScopes, withScopes(scopes, config))).toHaveLength(count);
  });

  it("applies to sub-account keys and skips unknown scopes", async () => {
    const call = { kind: "SubAccountApiKey", name: "t", props: { scopes: [UNKNOWN, "domains:write"] } };
    expect(await run(validateKeyScopes, call)).toEqual([expect.stringContaining("SubAccountApiKey 't': scopes[1]")]);
    expect(await run(validateKeyScopes, withScopes(UNKNOWN))).toEqual([]);
  });
});
