// Create after a stored failure (docs/contract/idempotency.md#rule-5): the service keeps a keyed create's 4xx for 24 h
// and replays it for the same key, although its cause may be gone (a scope added to the key since).
// A replayed 4xx created nothing, so the provider asks again with the next derived key and reports
// that answer. The fake service below stores and replays outcomes per key as the real one does, and
// its errors are the client's own (TxmailApiError), so messages are the ones users see.
import { z } from "zod";
import { TxmailApiError } from "../../../provider/client/errors";
import type { Api } from "../../../provider/core/api";
import { makeProvider } from "../../../provider/core/factory";
import type { Kind } from "../../../provider/api/kinds";
import type { Declaration } from "../../../provider/core/declaration";

const ACCOUNT = "11111111-1111-4111-8111-111111111111";
const urn = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/txmail:Gadget::g";

type Outcome = { record: Record<string, unknown> } | { status: number; message: string };

/** Creates gadgets when `allowed`; otherwise a 403. Every keyed outcome is stored and replayed. */
class StoringApi implements Api {
  allowed = false;
  readonly stored = new Map<string, Outcome>();
  readonly records = new Map<string, Record<string, unknown>>();
  readonly keysSent: string[] = [];
  private seq = 0;

  async post<T>(path: string, body: unknown, schema: z.ZodType<T, unknown>, opts?: { idempotencyKey?: string }) {
    const key = opts?.idempotencyKey ?? "";
    this.keysSent.push(key);
    const earlier = this.stored.get(key);
    const outcome = earlier ?? this.execute(body);
    if (!earlier) this.stored.set(key, outcome);
    const replayed = earlier !== undefined;
    if ("record" in outcome) return { data: schema.parse(outcome.record), replayed };
    throw new TxmailApiError({
      category: "forbidden",
      method: "POST",
      path,
      status: outcome.status,
      serviceMessage: outcome.message,
      attempts: 1,
      replayed,
    });
  }
  private execute(body: unknown): Outcome {
    if (!this.allowed) return { status: 403, message: "missing scope: gadgets:write:b.example.com is required" };
    const record = { id: `g${++this.seq}`, ...(body as object), created_at: new Date().toISOString() };
    this.records.set(record.id, record);
    return { record };
  }
  async get<T>(path: string, schema: z.ZodType<T, unknown>): Promise<T> {
    const r = this.records.get(path.split("/").pop()!);
    if (!r) throw Object.assign(new Error("not found"), { category: "not-found" });
    return schema.parse(r);
  }
  async put<T>(): Promise<T> {
    throw new Error("not used");
  }
  async delete(path: string): Promise<void> {
    this.records.delete(path.split("/").pop()!);
  }
  async *list<T>(): AsyncIterable<T> {}
}

const Gadget = z.object({ id: z.string(), name: z.string(), created_at: z.string() });
const declaration: Declaration<{ name: string }> = {
  kind: "Gadget" as Kind, // made up: no kind of the list
  sdk: { outputs: [] },
  title: (p) => p.name,
  listing: { listed: true },
  inputs: z.object({ name: z.string() }),
  apiFields: ["name"],
  replaceOn: [],
  record: Gadget,
  created: Gadget,
  collectionPath: () => "/gadgets",
  itemPath: (_c, _p, id) => `/gadgets/${id}`,
  scopes: {
    read: () => ["gadgets:read:all"],
    write: () => ["gadgets:write:all", "gadgets:write:b.example.com"],
    delete: () => ["gadgets:delete:all"],
  },
};

function setup() {
  process.env.TXMAIL_API_KEY = "test-sk-key";
  process.env.TXMAIL_ACCOUNT_ID = ACCOUNT;
  const api = new StoringApi();
  return { api, provider: makeProvider(declaration, () => api) };
}

const inputs = { name: "support", __urn: urn };

describe("create after a stored failure (idempotency rule 5)", () => {
  it("succeeds once the cause is fixed, although the first key replays the old 403: one object", async () => {
    const { api, provider } = setup();
    await expect(provider.create(inputs)).rejects.toThrow(/HTTP 403: missing scope/);
    api.allowed = true; // the key gains the scope out of band
    const made = await provider.create(inputs);
    expect(api.records.size).toBe(1);
    expect(made.id).toBe([...api.records.keys()][0]);
    expect(new Set(api.keysSent).size).toBe(2); // the stored 403's key, then the next derived one
  });

  it("reports today's answer when the cause is still there, and walks past every stored failure later", async () => {
    const { api, provider } = setup();
    await expect(provider.create(inputs)).rejects.toThrow(/HTTP 403: /);
    const second = provider.create(inputs);
    // The fresh answer of the next key: no "(replayed)", and the scope hint of the provider.
    await expect(second).rejects.toThrow(/^POST \/gadgets failed with HTTP 403: missing scope.*needs the scope/s);
    await expect(second).rejects.not.toThrow(/replayed/);
    api.allowed = true;
    await provider.create(inputs); // two stored 403s to step past
    expect(api.records.size).toBe(1);
    expect(api.keysSent).toHaveLength(1 + 2 + 3);
  });

  it("gives up after a bounded walk, showing the last stored failure as '(replayed)'", async () => {
    const { api, provider } = setup();
    for (let run = 0; run < 40; run++) await provider.create(inputs).catch(() => undefined);
    const sentBefore = api.keysSent.length;
    api.allowed = true;
    const last = provider.create(inputs);
    await expect(last).rejects.toThrow(
      /Gadget 'support': the service answered each of 32 derived idempotency keys with a stored outcome.*HTTP 403 \(replayed\): missing scope/s,
    );
    expect(api.keysSent.length - sentBefore).toBe(32);
    expect(api.records.size).toBe(0);
  });
});
