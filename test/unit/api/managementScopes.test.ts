// The scopes a key needs to manage a tenant's objects: `{domain}` scopes wherever the service ties
// the object to a domain, `:all` only for objects tied to none, nothing for kinds not declared.
import { scopesToManage, scopesToManageAll, sendScope } from "../../../provider/api/managementScopes";

describe("scopesToManage", () => {
  it.each([
    [
      { kind: "Domain", domain: "Mail.Acme.example.com" },
      ["domains:delete:mail.acme.example.com", "domains:read", "domains:write"],
    ],
    [
      { kind: "Route", recipient: "support@mail.acme.example.com" },
      [
        "routes:delete:mail.acme.example.com",
        "routes:read:mail.acme.example.com",
        "routes:write:mail.acme.example.com",
      ],
    ],
    [
      { kind: "Route", recipient: "*@Mail.Acme.example.com" },
      [
        "routes:delete:mail.acme.example.com",
        "routes:read:mail.acme.example.com",
        "routes:write:mail.acme.example.com",
      ],
    ],
    [{ kind: "Route", recipient: "" }, ["routes:delete:all", "routes:read:all", "routes:write:all"]],
    [{ kind: "Route" }, ["routes:delete:all", "routes:read:all", "routes:write:all"]],
    [{ kind: "Webhook" }, ["webhooks:delete:all", "webhooks:read:all", "webhooks:write:all"]],
    [
      { kind: "Webhook", scope: "global", domains: [] },
      ["webhooks:delete:all", "webhooks:read:all", "webhooks:write:all"],
    ],
    [
      { kind: "Webhook", scope: "scoped", domains: ["a.example.com", "b.example.com"] },
      [
        "webhooks:delete:a.example.com",
        "webhooks:delete:b.example.com",
        "webhooks:read:a.example.com",
        "webhooks:read:b.example.com",
        "webhooks:write:a.example.com",
        "webhooks:write:b.example.com",
      ],
    ],
    [
      { kind: "SmtpCredential", scope: "scoped", domains: ["a.example.com"] },
      [
        "smtp-credentials:delete:a.example.com",
        "smtp-credentials:read:a.example.com",
        "smtp-credentials:write:a.example.com",
      ],
    ],
    [
      { kind: "SmtpCredential" },
      ["smtp-credentials:delete:all", "smtp-credentials:read:all", "smtp-credentials:write:all"],
    ],
  ] as const)("%j needs %j", (object, scopes) => {
    expect(scopesToManage(object)).toEqual(scopes);
  });

  it("falls back to :all for a name that is not a valid scope domain", () => {
    expect(scopesToManage({ kind: "Route", recipient: "x@localhost" })).toContain("routes:write:all");
    expect(scopesToManage({ kind: "Domain", domain: "" })).toContain("domains:delete:all");
  });

  it("unites what every object needs, and gives a tenant with none a read-only scope", () => {
    expect(
      scopesToManageAll([
        { kind: "Domain", domain: "mail.acme.example.com" },
        { kind: "Route", recipient: "support@mail.acme.example.com" },
        { kind: "Route", recipient: "sales@mail.acme.example.com" },
      ]),
    ).toEqual([
      "domains:delete:mail.acme.example.com",
      "domains:read",
      "domains:write",
      "routes:delete:mail.acme.example.com",
      "routes:read:mail.acme.example.com",
      "routes:write:mail.acme.example.com",
    ]);
    expect(scopesToManageAll([])).toEqual(["domains:read"]);
  });

  it("never grants sending to a management key; app keys send from the tenant's domain", () => {
    const all = scopesToManageAll([
      { kind: "Domain", domain: "d.example.com" },
      { kind: "Webhook" },
      { kind: "Route" },
    ]);
    expect(all.filter((s) => s.startsWith("messages:"))).toEqual([]);
    expect(sendScope("mail.acme.example.com")).toBe("messages:send:mail.acme.example.com");
    expect(sendScope(undefined)).toBe("messages:send:all");
  });

  it("members and suppressions take their account-wide scopes, never suppressions:wipe", () => {
    expect(scopesToManage({ kind: "AccountMember" })).toEqual([
      "accounts:members:add",
      "accounts:members:read",
      "accounts:members:remove",
    ]);
    expect(scopesToManage({ kind: "Suppression" })).toEqual([
      "suppressions:delete",
      "suppressions:read",
      "suppressions:write",
    ]);
    expect(scopesToManageAll([{ kind: "Suppression" }])).not.toContain("suppressions:wipe");
  });
});
