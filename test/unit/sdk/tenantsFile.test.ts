import * as path from "node:path";
import { loadTenantsFile, parseTenants, tenantArgs, tenantOptions } from "../../../sdk/nodejs/tenantsFile";

describe("tenants file", () => {
  it("loads the example file shipped with the repository", () => {
    const f = loadTenantsFile(path.join(__dirname, "../../../examples/tenants-from-yaml/tenants.yaml"));
    expect(f.tenants.map((t) => t.name)).toEqual(["acme", "globex", "initech"]);
  });

  it("reports every problem with file, line, column and field", () => {
    const text = [
      "tenants:",
      "  - name: Acme Corp", // bad name (line 2)
      "    website: acme.example.com",
      "    monthlyCredit: -5", // below minimum (line 4)
      "  - name: ok",
      "    webhooks:",
      "      w:",
      "        url: https://x.example.com",
      "        events: [delivered, exploded]", // unknown event (line 9)
      "    colour: blue", // unknown key (line 10)
    ].join("\n");
    let message = "";
    try {
      parseTenants(text, "t.yaml");
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/t\.yaml:2:\d+: tenants\.0\.name: must be lower-case letters/);
    expect(message).toMatch(/t\.yaml:4:\d+: tenants\.0\.monthlyCredit: /);
    expect(message).toMatch(/t\.yaml:9:\d+: tenants\.1\.webhooks\.w\.events\.1: /);
    expect(message).toMatch(/t\.yaml:5:\d+: tenants\.1.*colour/);
    expect(message).toMatch(/website/); // the missing website of tenant "ok"
  });

  it("rejects YAML syntax errors and duplicate names", () => {
    expect(() => parseTenants("tenants: [", "bad.yaml")).toThrow(/bad\.yaml/);
    expect(() =>
      parseTenants("tenants:\n  - {name: a, website: a.example.com}\n  - {name: a, website: b.example.com}"),
    ).toThrow(/duplicate tenant name 'a'/);
  });

  it("accepts members and suppressions, naming the field and the rule for bad ones", () => {
    const ok = parseTenants(
      [
        "tenants:",
        "  - name: acme",
        "    website: acme.example.com",
        "    members:",
        "      alice: { email: alice@acme.example.com, name: Alice, role: Developer }",
        "    suppressions:",
        "      legal: { email: blocked@x.example.com, reason: legal hold, expiresAt: '2030-01-31T00:00:00Z' }",
      ].join("\n"),
    );
    const args = tenantArgs(ok.tenants[0]!);
    expect(args.members).toEqual({ alice: { email: "alice@acme.example.com", name: "Alice", role: "Developer" } });
    expect(args.suppressions).toEqual({
      legal: { email: "blocked@x.example.com", reason: "legal hold", expiresAt: "2030-01-31T00:00:00Z" },
    });
    let message = "";
    try {
      parseTenants(
        [
          "tenants:",
          "  - name: acme",
          "    website: acme.example.com",
          "    members:",
          "      bob: { email: not-an-address, role: Owner }", // line 5
          "    suppressions:",
          "      s: { email: a@x.example.com, expiresAt: next week }", // line 7
        ].join("\n"),
        "t.yaml",
      );
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/t\.yaml:5:\d+: tenants\.0\.members\.bob\.email: must be an email address/);
    expect(message).toMatch(/t\.yaml:5:\d+: tenants\.0\.members\.bob\.role: .*Administrator/);
    expect(message).toMatch(/t\.yaml:7:\d+: tenants\.0\.suppressions\.s\.expiresAt: must be an RFC 3339 time/);
  });

  it("maps entries to Tenant arguments, naming children after their keys", () => {
    const f = parseTenants(
      "tenants:\n  - name: t\n    website: t.example.com\n    webhooks:\n      ev: {url: 'https://t.example.com/e', events: [bounced]}\n",
    );
    const args = tenantArgs(f.tenants[0]);
    expect(args.webhooks?.ev).toMatchObject({ name: "ev", url: "https://t.example.com/e", onBounced: true });
    expect(args.displayName).toBe("t");
  });

  it("takes a rotation schedule for a key and an SMTP credential, and names a bad one", () => {
    const f = parseTenants(
      [
        "tenants:",
        "  - name: t",
        "    website: t.example.com",
        "    bootstrapKey: {rotation: {every: 30d, overlap: 7d}}",
        "    smtpCredentials:",
        "      app: {rotation: {every: 90d, overlap: 12h}}",
      ].join("\n"),
    );
    const args = tenantArgs(f.tenants[0]!);
    expect(args.bootstrapKey?.rotation).toEqual({ every: "30d", overlap: "7d" });
    expect(args.smtpCredentials?.app).toMatchObject({ name: "app", rotation: { every: "90d", overlap: "12h" } });
    expect(() =>
      parseTenants(
        "tenants:\n  - name: t\n    website: t.example.com\n    bootstrapKey: {rotation: {every: 1 month, overlap: 7d}}\n",
        "r.yaml",
      ),
    ).toThrow(/r\.yaml:4:\d+: tenants\.0\.bootstrapKey\.rotation\.every: must be a whole number of days or hours/);
  });

  it("passes a domain's verification to the Tenant, and refuses one without a domain or with a bad timeout", () => {
    const f = parseTenants(
      "tenants:\n  - name: t\n    website: t.example.com\n    domain: mail.t.example.com\n    domainVerification: {timeoutSeconds: 900}\n",
    );
    expect(tenantArgs(f.tenants[0]!).domainVerification).toEqual({ timeoutSeconds: 900 });
    expect(() =>
      parseTenants("tenants:\n  - {name: t, website: t.example.com, domainVerification: {}}", "v.yaml"),
    ).toThrow(/v\.yaml:2:\d+: tenants\.0\.domainVerification: needs a domain to verify/);
    expect(() =>
      parseTenants(
        "tenants:\n  - {name: t, website: t.example.com, domain: m.t.example.com, domainVerification: {timeoutSeconds: 0}}",
      ),
    ).toThrow(/tenants\.0\.domainVerification\.timeoutSeconds: /);
  });

  it("lets a thousand tenants share one anchored schedule, and still stops a nested expansion", () => {
    const tenants = Array.from({ length: 1000 }, (_, i) =>
      i === 0
        ? "  - name: t0\n    website: t0.example.com\n    bootstrapKey:\n      rotation: &every30d { every: 30d, overlap: 7d }"
        : `  - name: t${i}\n    website: t${i}.example.com\n    bootstrapKey:\n      rotation: *every30d`,
    );
    const f = parseTenants(["tenants:", ...tenants].join("\n"), "t.yaml");
    expect(f.tenants).toHaveLength(1000);
    expect(f.tenants[999]!.bootstrapKey?.rotation).toEqual({ every: "30d", overlap: "7d" });

    // Ten levels of ten aliases each: 10^10 nodes once expanded.
    const levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let n = 1; n < 10; n++)
      levels.push(
        `a${n}: &a${n} [${Array(10)
          .fill(`*a${n - 1}`)
          .join(", ")}]`,
      );
    expect(() => parseTenants([...levels, "tenants: []"].join("\n"), "t.yaml")).toThrow(
      /^t\.yaml: Excessive alias count.*more than 100000 nodes/,
    );
  });

  it("turns former names into the Tenant's aliases; an entry without them gets no options", () => {
    const f = parseTenants(
      [
        "tenants:",
        "  - { name: acme-corp, formerNames: [acme, acme-inc], website: acme.example.com }",
        "  - { name: globex, website: globex.example.com }",
      ].join("\n"),
    );
    expect(tenantOptions(f.tenants[0]!)).toEqual({ aliases: [{ name: "acme" }, { name: "acme-inc" }] });
    expect(tenantOptions(f.tenants[1]!)).toBeUndefined();
  });

  it("rejects a former name that is a tenant's name, claimed twice, or not a tenant name, naming each", () => {
    let message = "";
    try {
      parseTenants(
        [
          "tenants:",
          "  - { name: a, formerNames: [a], website: a.example.com }", // line 2: its own name
          "  - { name: b, formerNames: [a, old], website: b.example.com }", // line 3: a is a tenant
          "  - { name: c, formerNames: [old, Old Name], website: c.example.com }", // line 4: old claimed by b; bad
        ].join("\n"),
        "t.yaml",
      );
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/t\.yaml:2:\d+: tenants\.0\.formerNames\.0: 'a' is this tenant's own name/);
    expect(message).toMatch(/t\.yaml:3:\d+: tenants\.1\.formerNames\.0: 'a' is the name of tenant 'a'/);
    expect(message).toMatch(/t\.yaml:4:\d+: tenants\.2\.formerNames\.0: 'old' is already a former name of 'b'/);
    expect(message).toMatch(/t\.yaml:4:\d+: tenants\.2\.formerNames\.1: must be lower-case letters/);
  });

  it("checks websites and domains, and one domain per tenant, before any tenant is built, naming file:line:column", () => {
    const text = [
      "tenants:",
      "  - { name: a, website: a.example.com, domain: mail.a.example.com }",
      "  - { name: b, website: 'not a host', domain: MAIL.A.example.com }", // line 3: bad website, a's domain
      "  - { name: c, website: c.example.com, domain: 'mail..c' }", // line 4: bad domain
    ].join("\n");
    let message = "";
    try {
      parseTenants(text, "d.yaml");
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/d\.yaml:3:\d+: tenants\.1\.website: must be a fully qualified host name/);
    expect(message).toMatch(
      /d\.yaml:3:\d+: tenants\.1\.domain: 'MAIL\.A\.example\.com' is already tenant 'a''s domain/,
    );
    expect(message).toMatch(/d\.yaml:4:\d+: tenants\.2\.domain: must be a fully qualified host name/);
  });
});
