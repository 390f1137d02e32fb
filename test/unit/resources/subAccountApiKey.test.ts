// A Tenant's bootstrap key (deferScopeRemoval) is updated before the objects managed with it and
// Pulumi deletes removed objects last: removed scopes stay one more update, so the removed route can
// still be deleted; the next `pulumi up` narrows the key in place. Other keys narrow at once.
import { z } from "zod";
import type { Api } from "../../../provider/core/api";
import { makeProvider } from "../../../provider/core/factory";
import { declarations } from "../../../provider/resources";

const ACCOUNT = "11111111-1111-4111-8111-111111111111";
const SUB = "22222222-2222-4222-8222-222222222222";
const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/txmail:SubAccountApiKey::k";

/** One key; PUT replaces the given lists and, like the service, refuses an update that changes nothing. */
class KeyApi implements Api {
  readonly puts: Record<string, unknown>[] = [];
  record: Record<string, unknown> = {};
  async post<T>(_path: string, body: unknown, schema: z.ZodType<T, unknown>) {
    const now = new Date().toISOString();
    this.record = {
      object: "api_key",
      id: "0f8fad5b-d9cb-469f-a165-70867728950e",
      created_at: now,
      updated_at: now,
      last_used_at: null,
      account_id: SUB,
      label: (body as { label: string }).label,
      public_key: "pk",
      scopes: (body as { scopes: string[] }).scopes,
      ip_allow_list: [],
    };
    return { data: schema.parse({ ...this.record, secret_key: "txmail-sk-unit" }), replayed: false };
  }
  async put<T>(_path: string, body: unknown, schema: z.ZodType<T, unknown>): Promise<T> {
    const b = body as Record<string, unknown>;
    this.puts.push(b);
    if (Object.keys(b).length === 0) throw new Error("400: update changes nothing");
    this.record = { ...this.record, ...b };
    return schema.parse(this.record);
  }
  async get<T>(_path: string, schema: z.ZodType<T, unknown>): Promise<T> {
    return schema.parse(this.record);
  }
  async delete(): Promise<void> {}
  async *list<T>(): AsyncIterable<T> {}
}

async function keyWith(defer: boolean, scopes: string[]) {
  process.env.TXMAIL_API_KEY = "test-sk-key";
  process.env.TXMAIL_ACCOUNT_ID = ACCOUNT;
  const api = new KeyApi();
  const provider = makeProvider(declarations.SubAccountApiKey!, () => api);
  const inputs = (s: string[]) => ({ subAccountId: SUB, label: "k", scopes: s, deferScopeRemoval: defer, __urn: urn });
  const created = await provider.create((await provider.check({}, inputs(scopes))).inputs!);
  let state = created.outs!;
  /** One `pulumi up` with `s`: check, diff, and update when diff says so. */
  const up = async (s: string[]) => {
    const news = (await provider.check(state, inputs(s))).inputs!;
    const d = await provider.diff!(created.id, state, news);
    if (d.changes) state = (await provider.update!(created.id, state, news)).outs!;
    return { changed: d.changes, replaced: (d.replaces ?? []).length > 0 };
  };
  return { api, up, scopes: () => api.record.scopes as string[] };
}

const ROUTE = ["routes:delete:d.example.com", "routes:read:d.example.com", "routes:write:d.example.com"];

describe("SubAccountApiKey scope removal", () => {
  it("with deferScopeRemoval: widens at once, narrows one update later, in place", async () => {
    const k = await keyWith(true, ["domains:read"]);
    expect(await k.up(["domains:read", ...ROUTE])).toEqual({ changed: true, replaced: false });
    expect(k.scopes()).toEqual(["domains:read", ...ROUTE]);
    // The route is removed from the program: the key keeps its scopes for the deletes of this run
    // (and, nothing else having changed, no request is sent: the service refuses no-op updates).
    const puts = k.api.puts.length;
    expect(await k.up(["domains:read"])).toEqual({ changed: true, replaced: false });
    expect(k.scopes()).toEqual(["domains:read", ...ROUTE]);
    expect(k.api.puts).toHaveLength(puts);
    // The next up narrows it, then nothing changes.
    expect(await k.up(["domains:read"])).toEqual({ changed: true, replaced: false });
    expect(k.scopes()).toEqual(["domains:read"]);
    expect(await k.up(["domains:read"])).toEqual({ changed: false, replaced: false });
  });

  it("with deferScopeRemoval: a move keeps the old domain's scopes for one update", async () => {
    const k = await keyWith(true, ["routes:write:a.example.com"]);
    await k.up(["routes:write:b.example.com"]);
    expect(k.scopes()).toEqual(["routes:write:a.example.com", "routes:write:b.example.com"]);
    await k.up(["routes:write:b.example.com"]);
    expect(k.scopes()).toEqual(["routes:write:b.example.com"]);
  });

  it("without it: narrows at once", async () => {
    const k = await keyWith(false, ["domains:read", ...ROUTE]);
    await k.up(["domains:read"]);
    expect(k.scopes()).toEqual(["domains:read"]);
    expect(await k.up(["domains:read"])).toEqual({ changed: false, replaced: false });
  });
});
