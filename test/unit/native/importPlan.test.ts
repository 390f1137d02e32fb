// txmail-import-plan's pure parts: names derived from what people call objects, unique within the
// file; the `pulumi import --file` document; the command line, whose mistakes name the flag.
import { slug, uniqueNamer } from "../../../native/importPlan/names";
import { importPlan } from "../../../native/importPlan/plan";
import { parseOptions } from "../../../native/importPlan/options";
import { collectImportables, type Importable, type ObjectSource } from "../../../native/importPlan/collect";

const ACCOUNT = "0f8fad5b-d9cb-469f-a165-70867728950e";
const PROVIDER_URN = "urn:pulumi:dev::tenants::pulumi:providers:txmail::acme";

describe("names", () => {
  it("keep letters and digits in lower case, joined by single hyphens", () => {
    expect(slug("Mail.Acme.example.com", "domain")).toBe("mail-acme-example-com");
    expect(slug("  CI key (prod) ", "apikey")).toBe("ci-key-prod");
  });

  it("fall back to the kind when nothing is left, and are cut to 60 characters", () => {
    expect(slug("***", "route")).toBe("route");
    expect(slug("x".repeat(300), "route")).toHaveLength(60);
  });

  it("are handed out once: later holders of a name get -2, -3", () => {
    const next = uniqueNamer();
    expect(["inbound", "inbound", "events", "inbound"].map(next)).toEqual([
      "inbound",
      "inbound-2",
      "events",
      "inbound-3",
    ]);
  });
});

describe("the import file", () => {
  const found: Importable[] = [
    { kind: "Domain", importId: "mail.acme.example.com", title: "mail.acme.example.com" },
    { kind: "Route", importId: "r-1", title: "inbound" },
    { kind: "Webhook", importId: "w-1", title: "inbound" },
  ];

  it("names native types, unique names and the import ids", () => {
    expect(importPlan(found)).toEqual({
      resources: [
        { type: "txmail:index:Domain", name: "mail-acme-example-com", id: "mail.acme.example.com" },
        { type: "txmail:index:Route", name: "inbound", id: "r-1" },
        { type: "txmail:index:Webhook", name: "inbound-2", id: "w-1" },
      ],
    });
  });

  it("with a provider: every resource uses it, the name table holds its URN, and no resource takes its name", () => {
    const plan = importPlan([{ kind: "Route", importId: "r-1", title: "acme" }], { name: "acme", urn: PROVIDER_URN });
    expect(plan).toEqual({
      nameTable: { acme: PROVIDER_URN },
      resources: [{ type: "txmail:index:Route", name: "acme-2", id: "r-1", provider: "acme" }],
    });
  });
});

describe("the command line", () => {
  const env = { TXMAIL_API_KEY: "k-123", TXMAIL_ACCOUNT_ID: ACCOUNT };

  it("takes the key from the environment only, the account and base URL from flags or environment", () => {
    expect(parseOptions([], env)).toEqual({ apiKey: "k-123", accountId: ACCOUNT, baseUrl: "https://api.ahasend.com" });
    expect(
      parseOptions(
        ["--account", ACCOUNT, "--base-url", "http://127.0.0.1:4170/", "--provider", `acme=${PROVIDER_URN}`],
        {
          TXMAIL_API_KEY: "k",
        },
      ),
    ).toEqual({
      apiKey: "k",
      accountId: ACCOUNT,
      baseUrl: "http://127.0.0.1:4170",
      provider: { name: "acme", urn: PROVIDER_URN },
    });
  });

  it.each([
    [["--api-key", "k"], env, /unknown argument '--api-key'/],
    [[], { TXMAIL_ACCOUNT_ID: ACCOUNT }, /^TXMAIL_API_KEY: not set/],
    [[], { TXMAIL_API_KEY: "k" }, /^--account: not set/],
    [["--account", "acme"], env, /^--account: must be an account id .* got 'acme'/],
    [[], { ...env, TXMAIL_ACCOUNT_ID: "acme" }, /^TXMAIL_ACCOUNT_ID: must be an account id/],
    [["--base-url", "ftp://x"], env, /^--base-url: must be an http\(s\) URL/],
    [["--account"], env, /^--account needs a value/],
    [["--provider", "acme"], env, /^--provider: must be <name>=<urn of a txmail provider>/],
    [["--provider", "acme=urn:pulumi:dev::p::pulumi:providers:aws::acme"], env, /^--provider: must be/],
  ])("refuses %j naming the flag and the rule", (argv, environment, message) => {
    const parsed = parseOptions(argv as string[], environment as NodeJS.ProcessEnv);
    expect("problem" in parsed && parsed.problem).toMatch(message);
  });

  it("never echoes the API key in a problem", () => {
    const parsed = parseOptions([], { TXMAIL_API_KEY: " s3cret-value ", TXMAIL_ACCOUNT_ID: ACCOUNT });
    expect("problem" in parsed && parsed.problem).toMatch(/^TXMAIL_API_KEY: must not start or end with white space/);
    expect(JSON.stringify(parsed)).not.toContain("s3cret-value");
  });
});

describe("what is listed", () => {
  /** A service holding one live and one expired suppression and nothing else. */
  const source = {
    async *list(path: string) {
      if (!path.endsWith("/suppressions")) return;
      const base = { object: "suppression", created_at: "2026-11-01T00:00:00Z", domain: null, reason: null };
      yield {
        ...base,
        id: "11111111-1111-1111-1111-111111111111",
        email: "live@x.example.com",
        expires_at: "2026-12-31T00:00:00Z",
      };
      yield {
        ...base,
        id: "22222222-2222-2222-2222-222222222222",
        email: "past@x.example.com",
        expires_at: "2026-11-20T00:00:00Z",
      };
    },
    get: async () => ({ object: "list", data: [] }),
  } as unknown as ObjectSource;

  it("leaves out suppressions past their expiry (the service no longer applies them)", async () => {
    const { found } = await collectImportables(source, ACCOUNT, Date.parse("2026-11-23T00:00:00Z"));
    expect(found).toEqual([
      {
        kind: "Suppression",
        importId: "11111111-1111-1111-1111-111111111111",
        title: "suppression-live@x.example.com",
      },
    ]);
  });
});
