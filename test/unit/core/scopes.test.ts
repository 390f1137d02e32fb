import { parseScope, scopeProblem } from "../../../provider/core/scopes";

describe("scopes", () => {
  it.each([
    "messages:send:all",
    "routes:write:mail.example.com",
    "sub-account-api-keys:write",
    "suppressions:wipe",
    "statistics-transactional:read:a.b.example",
  ])("accepts %s", (s) => expect(scopeProblem(s)).toBeUndefined());

  it.each([
    ["routes:write:*", /not a valid domain name/],
    ["routes:write:Mail.Example.com", /not a valid domain name/],
    ["routes:write:localhost", /not a valid domain name/],
    ["api-keys:read:all", /not a scope/],
    ["messages:send", /not a scope/],
    ["domains:write:example.com", /not a scope/], // domains:write has no domain form
    ["", /non-empty/],
  ])("rejects %j", (s, why) => expect(scopeProblem(s)).toMatch(why));

  it("parses the domain of a {domain} scope and the verb", () => {
    expect(parseScope("webhooks:delete:mail.example.com")).toEqual({
      scope: "webhooks:delete:mail.example.com",
      domain: "mail.example.com",
      wide: false,
      verb: "delete",
    });
    expect(parseScope("routes:write:all")).toMatchObject({ wide: true, verb: "write" });
  });
});
