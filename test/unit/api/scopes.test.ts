// Written from the contract's scope table (docs/contract/scopes.md#scope-list): fixed scopes, and `{domain}` templates that take one of the
// account's domain names (any well-formed lower-case domain is accepted; a malformed one is not).
import {
  DOMAIN_SCOPE_PREFIXES,
  DOMAIN_SCOPE_TEMPLATES,
  FIXED_SCOPES,
  parseScope,
  scopeProblem,
} from "../../../provider/api/scopes";

// The contract's table, verbatim.
const CONTRACT_TABLE = [
  "messages:send:all, messages:send:{domain}, messages:cancel:all, messages:cancel:{domain}, messages:read:all, messages:read:{domain}",
  "domains:read, domains:write, domains:delete:all, domains:delete:{domain}",
  "accounts:read, accounts:write, accounts:billing, accounts:members:read, accounts:members:add, accounts:members:update, accounts:members:remove",
  "webhooks:read:all, webhooks:read:{domain}, webhooks:write:all, webhooks:write:{domain}, webhooks:delete:all, webhooks:delete:{domain}",
  "routes:read:all, routes:read:{domain}, routes:write:all, routes:write:{domain}, routes:delete:all, routes:delete:{domain}",
  "suppressions:read, suppressions:write, suppressions:delete, suppressions:wipe",
  "smtp-credentials:read:all, smtp-credentials:read:{domain}, smtp-credentials:write:all, smtp-credentials:write:{domain}, smtp-credentials:delete:all, smtp-credentials:delete:{domain}",
  "statistics-transactional:read:all, statistics-transactional:read:{domain}",
  "api-keys:read, api-keys:write, api-keys:delete",
  "sub-accounts:read, sub-accounts:write, sub-accounts:delete, sub-accounts:suspend, sub-accounts:usage",
  "sub-account-api-keys:read, sub-account-api-keys:write, sub-account-api-keys:delete",
].flatMap((row) => row.split(", "));

describe("the scope list matches the contract's table (docs/contract/scopes.md#scope-list)", () => {
  it("has every fixed scope and every {domain} template, and nothing else", () => {
    const ours = [...FIXED_SCOPES, ...DOMAIN_SCOPE_TEMPLATES].sort();
    expect(ours).toEqual([...CONTRACT_TABLE].sort());
    expect(DOMAIN_SCOPE_PREFIXES).toHaveLength(14);
  });

  it.each(CONTRACT_TABLE.map((s) => s.replace("{domain}", "mail.example.com")))("accepts %s", (scope) => {
    expect(scopeProblem(scope)).toBeUndefined();
  });
});

describe("{domain} scopes", () => {
  it.each([
    "routes:write:example.com",
    "routes:write:mail.example.com",
    "messages:send:a.b.c.example.co.uk",
    "webhooks:delete:xn--bcher-kva.example",
    "statistics-transactional:read:my-domain.io",
    "domains:delete:a1.example",
    "smtp-credentials:read:x.y",
    `messages:send:${"a".repeat(63)}.example`,
  ])("accepts %s", (scope) => expect(scopeProblem(scope)).toBeUndefined());

  it.each([
    "routes:write:*",
    "routes:write:*.example.com",
    "routes:write:Mail.Example.com",
    "routes:write:localhost",
    "routes:write:",
    "routes:write:example.com.",
    "routes:write:.example.com",
    "routes:write:-mail.example.com",
    "routes:write:mail-.example.com",
    "routes:write:mail..example.com",
    "routes:write:mail_x.example.com",
    "routes:write:10.0.0.1",
    "routes:write:mail.example.com:all",
    "routes:write: mail.example.com",
    `messages:send:${"a".repeat(64)}.example`,
    `messages:send:${Array.from({ length: 64 }, () => "abc").join(".")}`, // > 253 characters
  ])("rejects %j as a malformed domain, naming the scope and the domain", (scope) => {
    const problem = scopeProblem(scope);
    expect(problem).toMatch(/is not a valid domain name/);
    expect(problem).toContain(`'${scope}'`);
  });
});

describe("unknown scopes", () => {
  it.each([
    ["api-keys:read:all", /not a scope of the service; did you mean 'api-keys:read'\?/],
    ["messages:send", /did you mean 'messages:send:all' or 'messages:send:\{domain\}'\?/],
    ["domains:delete", /did you mean 'domains:delete:all'/],
    ["API-KEYS:READ", /did you mean 'api-keys:read'\?/],
    ["domains:write:example.com", /not a scope of the service/], // domains:write has no domain form
    ["accounts:members:all", /not a scope of the service/],
    ["sub-accounts:api-keys:read", /not a scope of the service/],
    ["*", /not a scope of the service/],
    ["all", /not a scope of the service/],
    ["admin", /not a scope of the service \(e\.g\./],
    [" api-keys:read", /not a scope of the service/],
  ])("rejects %j", (scope, why) => expect(scopeProblem(scope)).toMatch(why));

  it("rejects an empty scope", () => expect(scopeProblem("")).toMatch(/non-empty string/));
});

describe("parseScope", () => {
  it.each([
    ["webhooks:delete:mail.example.com", { domain: "mail.example.com", wide: false, verb: "delete" }],
    ["routes:write:all", { wide: true, verb: "write" }],
    ["api-keys:read", { wide: true, verb: "read" }],
    ["suppressions:wipe", { wide: true, verb: "wipe" }],
    ["accounts:members:remove", { wide: true, verb: "remove" }],
    ["messages:send:example.com", { domain: "example.com", wide: false, verb: "send" }],
  ])("%s", (scope, parsed) => expect(parseScope(scope)).toMatchObject({ scope, ...parsed }));

  it("returns undefined for an unknown scope", () => expect(parseScope("routes:write")).toBeUndefined());
});
