// The twin sweep after a retried 5xx lists the routes collection. A key holding only
// `routes:read:{domain}` (a Tenant's bootstrap key) may list routes only with `?domain=` (else
// 400), so the sweep names the route's recipient domain; a route with no recipient lists unfiltered.
import { z } from "zod";
import type { Api } from "../../../provider/core/api";
import { makeProvider } from "../../../provider/core/factory";
import { declarations } from "../../../provider/resources";
import { routeRecord } from "../../fixtures/records";

const ACCOUNT = "11111111-1111-4111-8111-111111111111";

class SweepApi implements Api {
  readonly listed: Array<Record<string, string> | undefined> = [];
  async post<T>(_path: string, body: unknown, schema: z.ZodType<T, unknown>) {
    const now = new Date().toISOString();
    const b = body as Record<string, unknown>;
    const record = routeRecord({
      id: "0f8fad5b-d9cb-469f-a165-70867728950e",
      created_at: now,
      updated_at: now,
      name: b.name,
      url: b.url,
      recipient: b.recipient,
      secret: "whsec_unit",
    });
    // As the client reports a fresh execution after a 5xx: the object may exist twice.
    return { data: schema.parse(record), replayed: false, uncertain: true };
  }
  async put<T>(): Promise<T> {
    throw new Error("unused");
  }
  async get<T>(): Promise<T> {
    throw new Error("unused");
  }
  async delete(): Promise<void> {}
  async *list<T>(_path: string, _schema: z.ZodType<T, unknown>, query?: Record<string, string>): AsyncIterable<T> {
    this.listed.push(query);
    yield* [] as T[];
  }
}

async function sweepQuery(recipient: string) {
  process.env.TXMAIL_API_KEY = "test-sk-key";
  process.env.TXMAIL_ACCOUNT_ID = ACCOUNT;
  const api = new SweepApi();
  const provider = makeProvider(declarations.Route!, () => api);
  const urn = `urn:pulumi:dev::p::pulumi-nodejs:dynamic/txmail:Route::r-${recipient}`;
  const checked = await provider.check({}, { name: "r", url: "https://x.example.com/in", recipient, __urn: urn });
  await provider.create(checked.inputs!);
  return api.listed;
}

describe("Route twin sweep", () => {
  it("lists with the recipient's domain, lower case, so a domain-scoped read key may list", async () => {
    expect(await sweepQuery("support@Mail.Acme.example.com")).toEqual([{ domain: "mail.acme.example.com" }]);
  });

  it("lists unfiltered for a route with no recipient (it needs routes:read:all anyway)", async () => {
    expect(await sweepQuery("")).toEqual([undefined]);
  });
});
