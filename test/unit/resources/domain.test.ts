// The Domain resource sends exactly what the API takes (docs/contract/endpoints/domains.md#records):
// a program's `null` for a subdomain, the rotation interval or the selector is "not set" and never
// sent; the selector is checked and canonicalised as the service does (trimmed, lower case, one DNS
// label of 1–62 characters, no edge hyphen; whitespace only = "" = the default selector), and the
// default selector — which the service reports as null — is no diff against a program saying "".
// Against an in-memory service that answers with records of the described shape.
import { z } from "zod";
import type { Api } from "../../../provider/core/api";
import { makeProvider } from "../../../provider/core/factory";
import { declarations } from "../../../provider/resources";

const ACCOUNT = "11111111-1111-4111-8111-111111111111";
const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/txmail:Domain::d";

/** Keeps domains by name; applies create and (partial, null = unchanged, "" clears the selector) update. */
class DomainsApi implements Api {
  readonly posted: Record<string, unknown>[] = [];
  readonly put_: Record<string, unknown>[] = [];
  private readonly byName = new Map<string, Record<string, unknown>>();

  async post<T>(_path: string, body: unknown, schema: z.ZodType<T, unknown>) {
    const b = body as Record<string, unknown>;
    this.posted.push(b);
    const now = new Date().toISOString();
    const record = {
      object: "domain",
      id: "0f8fad5b-d9cb-469f-a165-70867728950e",
      created_at: now,
      updated_at: now,
      domain: b.domain,
      account_id: ACCOUNT,
      dns_records: [],
      last_dns_check_at: null,
      dns_valid: false,
      tracking_subdomain: b.tracking_subdomain ?? null,
      return_path_subdomain: b.return_path_subdomain ?? null,
      subscription_subdomain: b.subscription_subdomain ?? null,
      media_subdomain: b.media_subdomain ?? null,
      dkim_rotation_interval_days: b.dkim_rotation_interval_days ?? null,
      dkim_selector: b.dkim_selector || null,
      dsn_recipient: null,
      rotation_ready: false,
    };
    this.byName.set(String(b.domain), record);
    return { data: schema.parse(record), replayed: false };
  }
  async put<T>(path: string, body: unknown, schema: z.ZodType<T, unknown>): Promise<T> {
    const b = body as Record<string, unknown>;
    this.put_.push(b);
    const record = this.byName.get(path.split("/").pop()!)!;
    for (const [k, v] of Object.entries(b)) if (v !== null) record[k] = k === "dkim_selector" && v === "" ? null : v;
    return schema.parse(record);
  }
  async get<T>(path: string, schema: z.ZodType<T, unknown>): Promise<T> {
    return schema.parse(this.byName.get(path.split("/").pop()!));
  }
  async delete(): Promise<void> {}
  async *list<T>(): AsyncIterable<T> {}
}

function setup() {
  process.env.TXMAIL_API_KEY = "test-sk-key";
  process.env.TXMAIL_ACCOUNT_ID = ACCOUNT;
  const api = new DomainsApi();
  return { api, provider: makeProvider(declarations.Domain!, () => api) };
}

describe("Domain inputs as the API takes them", () => {
  it("never sends a program's null for a subdomain, the rotation interval or the selector", async () => {
    const { api, provider } = setup();
    const checked = await provider.check(
      {},
      {
        domain: "mail.example.com",
        trackingSubdomain: null,
        returnPathSubdomain: null,
        subscriptionSubdomain: null,
        mediaSubdomain: "img",
        dkimRotationIntervalDays: null,
        dkimSelector: null,
        __urn: urn,
      },
    );
    expect(checked.failures).toBeUndefined();
    await provider.create(checked.inputs!);
    expect(api.posted).toEqual([{ domain: "mail.example.com", media_subdomain: "img" }]);
  });

  it.each([
    [" Sel-1 ", "sel-1"],
    ["MAIL2026", "mail2026"],
    ["   ", ""],
    ["a".repeat(62), "a".repeat(62)],
  ])("canonicalises the selector %j to %j, as the service stores it", async (given, canonical) => {
    const { provider } = setup();
    const r = await provider.check({}, { domain: "mail.example.com", dkimSelector: given, __urn: urn });
    expect(r.inputs?.dkimSelector).toBe(canonical);
  });

  it.each([["a".repeat(63)], ["-sel"], ["sel-"], ["se l"], ["sel.x"]])(
    "rejects the selector %j, naming the field and the rule",
    async (given) => {
      const { provider } = setup();
      const r = await provider.check({}, { domain: "mail.example.com", dkimSelector: given, __urn: urn });
      expect(r.failures).toEqual([
        {
          property: "dkimSelector",
          reason: expect.stringMatching(
            /^dkimSelector: must be empty \(the default selector\) or one DNS label: 1 to 62/,
          ),
        },
      ]);
    },
  );

  it("a whitespace-only selector is the default: no diff after create, nothing to update", async () => {
    const { api, provider } = setup();
    const { inputs } = await provider.check({}, { domain: "mail.example.com", dkimSelector: "  ", __urn: urn });
    const made = await provider.create(inputs!);
    // The default selector: left out of the canonical create body, as the service keeps "" (unset).
    expect(api.posted[0]).not.toHaveProperty("dkim_selector");
    const again = await provider.check(made.outs, { domain: "mail.example.com", dkimSelector: " ", __urn: urn });
    expect(await provider.diff(made.id, made.outs, again.inputs!)).toMatchObject({ changes: false });
  });

  it('going back to the default selector sends "" (null would mean unchanged) and converges', async () => {
    const { api, provider } = setup();
    const first = await provider.check({}, { domain: "mail.example.com", dkimSelector: "sel1", __urn: urn });
    const made = await provider.create(first.inputs!);
    const back = await provider.check(made.outs, { domain: "mail.example.com", dkimSelector: "", __urn: urn });
    expect((await provider.diff(made.id, made.outs, back.inputs!)).changes).toBe(true);
    const updated = await provider.update(made.id, made.outs, back.inputs!);
    expect(api.put_).toEqual([{ dkim_selector: "" }]);
    expect((await provider.diff(made.id, updated.outs, back.inputs!)).changes).toBe(false);
  });
});
