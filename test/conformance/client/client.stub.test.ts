// The client over real loopback sockets against the local stub server (test/conformance/client/
// stubServer.ts), for what the emulator cannot produce: a schema-breaking body, an HTTP-date
// Retry-After, an error message echoing secrets. The emulator-backed cases are repeated here only as a
// fallback for checkouts without emulator/server.ts.
import { z } from "zod";
import { ApiKeyWithSecret, Route, RouteWithSecret, paths } from "../../../provider/api";
import {
  TxmailApiError,
  closeSharedDispatchers,
  createClient,
  type LogEntry,
  type TxmailClientOptions,
} from "../../../provider/client";
import { haveEmulator } from "./emulatorControl";
import { startStub, type StubServer } from "./stubServer";

/**
 * Cases the emulator produces are run against it (client.emulator.test.ts); here they run only as a
 * fallback when emulator/server.ts is absent. The stub-only cases below always run.
 */
const describeFallback = haveEmulator ? describe.skip : describe;

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

async function caught(p: Promise<unknown>): Promise<TxmailApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TxmailApiError) {
      errors.push(e);
      return e;
    }
    throw e;
  }
  throw new Error("expected a TxmailApiError");
}

const newRoute = (name: string) => ({ name, url: "https://hooks.example.com/in", recipient: "" });

beforeEach(async () => {
  stub = await startStub();
});
afterEach(async () => {
  await stub.close();
});
afterAll(async () => {
  await closeSharedDispatchers();
});

describeFallback("[fallback] idempotent creates survive faults without duplicates", () => {
  test("injected 503 before the work: retried with the same key, one record", async () => {
    stub.inject({ kind: "status", status: 503 }, { kind: "status", status: 502 });
    const c = client(stub);
    const r = await c.post(paths.routes(stub.accountId), newRoute("a"), RouteWithSecret, { idempotencyKey: "route-a" });
    secretsSeen.push(r.data.secret);
    expect(r).toMatchObject({ status: 201, attempts: 3, replayed: false });
    expect(stub.records.get("routes")).toHaveLength(1);
    expect(new Set(stub.requests.map((q) => q.idempotencyKey))).toEqual(new Set(["route-a"]));
  });

  test("response dropped after the work was done: the retry is a replay, one record", async () => {
    stub.inject({ kind: "drop-after" });
    const c = client(stub);
    const r = await c.post(
      paths.apiKeys(stub.accountId),
      { label: "ci", scopes: ["routes:read:all"] },
      ApiKeyWithSecret,
      { idempotencyKey: "key-ci" },
    );
    secretsSeen.push(r.data.secret_key);
    expect(r).toMatchObject({ status: 201, attempts: 2, replayed: true });
    expect(stub.records.get("api-keys")).toHaveLength(1);
    expect(stub.count("POST")).toBe(2);
  });

  test("connection dropped before the work: retried, one record", async () => {
    stub.inject({ kind: "drop-before" });
    const r = await client(stub).post(paths.routes(stub.accountId), newRoute("b"), RouteWithSecret, {
      idempotencyKey: "route-b",
    });
    expect(r.attempts).toBe(2);
    expect(stub.records.get("routes")).toHaveLength(1);
  });

  test("headers timeout while the server is still working -> in-progress 409 -> Retry-After honoured -> replay", async () => {
    // undici's headers timer has ~1 s resolution, so 250 ms fires after 1–1.5 s: the server works 2.5 s.
    stub.inject({ kind: "slow", ms: 2500 });
    const c = client(stub, { timeouts: { headersMs: 250 } });
    const t0 = Date.now();
    const r = await c.post(paths.routes(stub.accountId), newRoute("slow"), RouteWithSecret, {
      idempotencyKey: "route-slow",
    });
    const elapsed = Date.now() - t0;
    expect(r).toMatchObject({ status: 201, replayed: true });
    expect(stub.records.get("routes")).toHaveLength(1);
    const statuses = stub.requests.map((q) => q.status);
    expect(statuses).toContain(409);
    expect(elapsed).toBeGreaterThanOrEqual(2500);
    // the 409 said Retry-After: 1, and the client waited that full second (not its 20 ms backoff)
    const wait = logs.find((l) => l.delayMs === 1000 && /in-progress/.test(l.message));
    expect(wait).toBeDefined();
  });

  test("a POST without a key is never retried (could duplicate)", async () => {
    stub.inject({ kind: "drop-after" });
    const e = await caught(client(stub).post(paths.routes(stub.accountId), newRoute("c"), RouteWithSecret));
    expect(e).toMatchObject({ kind: "network", attempts: 1 });
    expect(e.message).toMatch(/outcome is unknown/);
    expect(stub.count("POST")).toBe(1);
  });

  test("a DELETE whose response was dropped is retried and the 404 surfaces (caller treats as gone)", async () => {
    const c = client(stub);
    const r = await c.post(paths.routes(stub.accountId), newRoute("d"), RouteWithSecret, { idempotencyKey: "route-d" });
    stub.inject({ kind: "drop-after", match: (q) => q.method === "DELETE" });
    const e = await caught(c.delete(paths.route(stub.accountId, r.data.id)));
    expect(e).toMatchObject({ kind: "not-found", attempts: 2 });
  });
});

describeFallback("[fallback] terminal errors", () => {
  test.each([
    [400, "validation"],
    [403, "forbidden"],
    [404, "not-found"],
    [409, "conflict"],
    [422, "idempotency-mismatch"],
  ] as const)("%p is not retried: exactly one request", async (status, kind) => {
    stub.inject({ kind: "status", status, body: { message: `nope ${status}` } });
    const e = await caught(
      client(stub).post(paths.routes(stub.accountId), newRoute("x"), RouteWithSecret, {
        idempotencyKey: `k-${status}`,
      }),
    );
    expect(e).toMatchObject({ kind, status, attempts: 1, serviceMessage: `nope ${status}` });
    expect(stub.requests).toHaveLength(1);
  });

  test("a real idempotency mismatch (same key, different body) is a 422 naming the derivation bug", async () => {
    const c = client(stub);
    await c.post(paths.routes(stub.accountId), newRoute("one"), RouteWithSecret, { idempotencyKey: "same" });
    const e = await caught(
      c.post(paths.routes(stub.accountId), newRoute("two"), RouteWithSecret, { idempotencyKey: "same" }),
    );
    expect(e.kind).toBe("idempotency-mismatch");
    expect(e.message).toMatch(/bug in idempotency-key derivation/);
    expect(stub.requests).toHaveLength(2);
  });

  test("wrong API key: 401, one request, key not in the message", async () => {
    const wrongKey = `bad-sk-${"x".repeat(64)}`;
    const e = await caught(client(stub, { apiKey: wrongKey }).get(paths.routes(stub.accountId), z.unknown()));
    expect(e).toMatchObject({ kind: "unauthorized", status: 401, attempts: 1 });
    expect(e.message).not.toContain(wrongKey);
  });
});

describeFallback("[fallback] rate limiting", () => {
  test("a 429 storm (server 50 rps, burst 10, Retry-After: 1) is absorbed with zero errors", async () => {
    await stub.close();
    stub = await startStub({ rateLimit: { ratePerSecond: 50, burst: 10, retryAfter: "seconds" } });
    const c = client(stub, { retry: { maxAttempts: 8, maxElapsedMs: 60_000, baseDelayMs: 20, maxDelayMs: 200 } });
    const results = await Promise.allSettled(Array.from({ length: 150 }, () => c.ping()));
    const failed = results.filter((r) => r.status === "rejected");
    expect(failed).toEqual([]);
    const n429 = stub.requests.filter((q) => q.status === 429).length;
    expect(n429).toBeGreaterThan(0); // there was a storm...
    expect(n429).toBeLessThan(300); // ...and the shared bucket kept it from multiplying
    expect(logs.some((l) => l.level === "warn" && l.status === 429)).toBe(true);
  }, 60_000);

  test("a 429 storm without Retry-After (backoff with jitter) is absorbed too", async () => {
    await stub.close();
    stub = await startStub({ rateLimit: { ratePerSecond: 50, burst: 10, retryAfter: "none" } });
    const c = client(stub, { retry: { maxAttempts: 8, maxElapsedMs: 60_000, baseDelayMs: 100, maxDelayMs: 2000 } });
    const results = await Promise.allSettled(Array.from({ length: 100 }, () => c.ping()));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
  }, 60_000);

  test("client-side pacing alone avoids 429s when the client knows the limit", async () => {
    await stub.close();
    // Headroom for loopback/event-loop jitter: the client paces at half the server's limit.
    stub = await startStub({ rateLimit: { ratePerSecond: 50, burst: 10 } });
    const c = client(stub, { rateLimit: { ratePerSecond: 25, burst: 5 } });
    const results = await Promise.allSettled(Array.from({ length: 60 }, () => c.ping()));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(stub.requests.filter((q) => q.status === 429)).toHaveLength(0);
  }, 30_000);
});

describeFallback("[fallback] pagination", () => {
  test("250 items paged completely in 3 requests", async () => {
    const c = client(stub, { rateLimit: false });
    for (let i = 0; i < 250; i++) {
      await c.post(paths.routes(stub.accountId), newRoute(`r${i}`), RouteWithSecret, { idempotencyKey: `page-${i}` });
    }
    const before = stub.requests.length;
    const names: string[] = [];
    for await (const r of c.list(paths.routes(stub.accountId), Route)) names.push(r.name);
    expect(names).toHaveLength(250);
    expect(new Set(names).size).toBe(250);
    const listCalls = stub.requests.slice(before);
    expect(listCalls).toHaveLength(3);
    expect(listCalls.every((q) => q.method === "GET")).toBe(true);
  });

  test("findById stops at the page holding the item", async () => {
    const c = client(stub, { rateLimit: false });
    const ids: string[] = [];
    for (let i = 0; i < 250; i++) {
      ids.push(
        (
          await c.post(paths.routes(stub.accountId), newRoute(`f${i}`), RouteWithSecret, {
            idempotencyKey: `find-${i}`,
          })
        ).data.id,
      );
    }
    const before = stub.requests.length;
    expect(await c.findById(paths.routes(stub.accountId), Route, ids[120]!)).toMatchObject({ name: "f120" });
    expect(stub.requests.length - before).toBe(2);
    expect(
      await c.findById(paths.routes(stub.accountId), Route, "00000000-0000-4000-8000-000000000000"),
    ).toBeUndefined();
  });
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
    stub.inject({ kind: "body", body: { object: "route", id: "not-a-uuid", name: 7 } });
    const path = paths.route(stub.accountId, "22222222-2222-4222-8222-222222222222");
    const e = await caught(client(stub).get(path, Route));
    expect(e.kind).toBe("schema");
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
      kind: "status",
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
