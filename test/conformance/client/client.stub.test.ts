// The client over real loopback sockets against the local stub server (test/conformance/client/
// stubServer.ts), for what the emulator cannot produce: a schema-breaking body, an HTTP-date
// Retry-After, an error message echoing secrets. Everything the emulator can produce is tested
// against it in client.emulator.test.ts.
import { z } from "zod";
import { ApiKeyWithSecret, Route, paths } from "../../../provider/api";
import {
  TxmailApiError,
  closeSharedDispatchers,
  createClient,
  type LogEntry,
  type TxmailClientOptions,
} from "../../../provider/client";
import { apiErrorCatcher } from "./apiErrors";
import { startStub, type StubServer } from "./stubServer";

let stub: StubServer;
const logs: LogEntry[] = [];
const errors: TxmailApiError[] = [];
const secretsSeen: string[] = [];

function client(stubServer: StubServer, over: Partial<TxmailClientOptions> = {}) {
  return createClient({
    apiKey: stubServer.apiKey,
    accountId: stubServer.accountId,
    baseUrl: stubServer.baseUrl,
    retry: { baseDelayMs: 20, maxDelayMs: 200, maxElapsedMs: 20_000 },
    logger: (e) => logs.push(e),
    ...over,
  });
}

const caught = apiErrorCatcher(errors);

beforeEach(async () => {
  stub = await startStub();
});
afterEach(async () => {
  await stub.close();
});
afterAll(async () => {
  await closeSharedDispatchers();
});

describe("stub-only: validation and Retry-After dates", () => {
  test("a 429 storm with HTTP-date Retry-After is absorbed with zero errors", async () => {
    await stub.close();
    stub = await startStub({ rateLimit: { ratePerSecond: 50, burst: 10, retryAfter: "date" } });
    const c = client(stub, { retry: { maxAttempts: 8, maxElapsedMs: 60_000, baseDelayMs: 20, maxDelayMs: 200 } });
    const results = await Promise.allSettled(Array.from({ length: 100 }, () => c.ping()));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(stub.requests.filter((q) => q.status === 429).length).toBeGreaterThan(0);
  }, 60_000);

  test("a schema mismatch names the endpoint and the field", async () => {
    stub.inject({ mode: "body", body: { object: "route", id: "not-a-uuid", name: 7 } });
    const path = paths.route(stub.accountId, "22222222-2222-4222-8222-222222222222");
    const e = await caught(client(stub).get(path, Route));
    expect(e.category).toBe("schema");
    expect(e.message).toContain(`GET ${path}`);
    expect(e.message).toMatch(/at id: /);
    expect(e.message).toMatch(/at name: /);
    expect(e.issues.map((i) => i.path)).toEqual(expect.arrayContaining(["id", "name", "created_at"]));
  });
});

describe("stub-only: secrets", () => {
  test("secrets echoed by the server never reach an error or a log line", async () => {
    const c = client(stub);
    const created = await c.post(paths.apiKeys(stub.accountId), { label: "leak", scopes: ["x"] }, ApiKeyWithSecret, {
      idempotencyKey: "leak-1",
    });
    secretsSeen.push(created.data.secret_key);
    stub.inject({
      mode: "status",
      status: 400,
      body: { message: `bad request from Bearer ${stub.apiKey} with ${created.data.secret_key}` },
    });
    const e = await caught(c.get(paths.routes(stub.accountId), z.unknown()));
    expect(e.message).toContain("[REDACTED]");
  });

  afterAll(() => {
    // Over every test in this file: no API key, secret_key, route secret or idempotency key in any
    // error text or log line.
    const text = [
      ...errors.flatMap((e) => [e.message, e.stack ?? "", JSON.stringify(e)]),
      ...logs.map((l) => JSON.stringify(l)),
    ].join("\n");
    expect(text.length).toBeGreaterThan(0);
    for (const s of secretsSeen) expect(text).not.toContain(s);
    expect(text).not.toMatch(/stub-sk-[0-9a-f]{64}/);
    expect(text).not.toMatch(/bad-sk-x{64}/);
    expect(text).not.toMatch(/route-slow|key-ci|leak-1/);
  });
});
