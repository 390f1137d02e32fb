// The retry loop, validation and error shaping, driven through undici's MockAgent with a fake clock:
// every wait is asserted exactly and no test sleeps for real.
import { MockAgent } from "undici";
import type { MockInterceptor } from "undici/types/mock-interceptor";
import { z } from "zod";
import { ApiKey, ApiKeyWithSecret, MessageResponse, Route } from "../../../provider/api";
import { FakeClock } from "../../../provider/client/clock";
import { TxmailApiError, createClient, type LogEntry, type TxmailClientOptions } from "../../../provider/client";
import { clearSecretsForTests } from "../../../provider/client/redact";
import { resetSharedBucketsForTests } from "../../../provider/client/pace";
import { routeRecord } from "../../fixtures/records";

const ORIGIN = "https://api.test.invalid";
const ACCOUNT = "11111111-1111-4111-8111-111111111111";
const API_KEY = `txm-sk-${"Zz09".repeat(16)}`;
const NOW = "2025-01-01T00:00:00Z";

type Step = { status: number; body?: unknown; headers?: Record<string, string> } | { error: string /* code */ };

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function setup(steps: Step[], opts: Partial<TxmailClientOptions> = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  const seen: Seen[] = [];
  for (const step of steps) {
    const icpt = pool.intercept({ path: () => true, method: () => true });
    if ("error" in step) {
      icpt.replyWithError(Object.assign(new Error(`simulated ${step.error}`), { code: step.error }));
    } else {
      icpt.reply((o: MockInterceptor.MockResponseCallbackOptions) => {
        seen.push({
          method: o.method,
          path: o.path,
          headers: Object.fromEntries(
            Object.entries((o.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
          ),
          body: typeof o.body === "string" ? o.body : undefined,
        });
        return {
          statusCode: step.status,
          data: step.body === undefined ? "" : typeof step.body === "string" ? step.body : JSON.stringify(step.body),
          responseOptions: { headers: { "content-type": "application/json", ...(step.headers ?? {}) } },
        };
      });
    }
  }
  const clock = new FakeClock(Date.parse(NOW));
  const logs: LogEntry[] = [];
  const client = createClient({
    apiKey: API_KEY,
    accountId: ACCOUNT,
    baseUrl: ORIGIN,
    dispatcher: agent,
    clock,
    random: () => 0.5,
    rateLimit: false,
    logger: (e) => logs.push(e),
    ...opts,
  });
  return { agent, client, clock, seen, logs };
}

const routeBody = (over: Record<string, unknown> = {}) =>
  routeRecord({ created_at: NOW, updated_at: NOW, name: "r", url: "https://hooks.example.com/in", ...over });

const keyBody = (over: Record<string, unknown> = {}) => ({
  object: "api_key",
  id: "33333333-3333-4333-8333-333333333333",
  created_at: NOW,
  updated_at: NOW,
  last_used_at: null,
  account_id: ACCOUNT,
  label: "ci",
  public_key: "pk_1",
  scopes: ["routes:read:all"],
  ip_allow_list: [],
  ...over,
});

const routesPath = `/v2/accounts/${ACCOUNT}/routes`;

beforeEach(() => {
  resetSharedBucketsForTests();
});
afterEach(() => clearSecretsForTests());

async function caught(p: Promise<unknown>): Promise<TxmailApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TxmailApiError) return e;
    throw e;
  }
  throw new Error("expected a TxmailApiError");
}

describe("request basics", () => {
  test("Bearer auth, JSON in and out, base URL prefix, query", async () => {
    const t = setup([{ status: 200, body: routeBody() }], { baseUrl: `${ORIGIN}/api/` });
    const r = await t.client.put(`${routesPath}/r1`, { name: "x" }, Route, { query: { a: 1, b: undefined } });
    expect(r.name).toBe("r");
    expect(t.seen[0]).toMatchObject({ method: "PUT", path: `/api${routesPath}/r1?a=1`, body: '{"name":"x"}' });
    expect(t.seen[0]!.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      "content-type": "application/json",
      accept: "application/json",
    });
  });

  test("unknown extra fields are tolerated", async () => {
    const t = setup([{ status: 200, body: routeBody({ brand_new_field: { x: 1 } }) }]);
    await expect(t.client.get(`${routesPath}/r`, Route)).resolves.toMatchObject({ name: "r" });
  });

  test("scopes as objects are normalised to strings (schema transform applies)", async () => {
    const t = setup([{ status: 200, body: keyBody({ scopes: [{ id: "x", scope: "routes:read:all" }] }) }]);
    await expect(t.client.get("/k", ApiKey)).resolves.toMatchObject({ scopes: ["routes:read:all"] });
  });

  test("delete defaults to the {message} schema", async () => {
    const t = setup([{ status: 200, body: { message: "Operation completed successfully" } }]);
    await expect(t.client.delete(`${routesPath}/r`)).resolves.toEqual({ message: "Operation completed successfully" });
  });

  test("bad idempotency keys and paths are programming errors", async () => {
    const t = setup([]);
    await expect(t.client.post(routesPath, {}, Route, { idempotencyKey: "" })).rejects.toThrow(TypeError);
    await expect(t.client.post(routesPath, {}, Route, { idempotencyKey: "x".repeat(256) })).rejects.toThrow(TypeError);
    await expect(t.client.post(routesPath, {}, Route, { idempotencyKey: "has space" })).rejects.toThrow(TypeError);
    await expect(t.client.request("GET", routesPath, Route, { idempotencyKey: "k" })).rejects.toThrow(
      /only supported on POST/,
    );
    await expect(t.client.get("no-slash", Route)).rejects.toThrow(TypeError);
  });

  test("the client object never shows the key", () => {
    const t = setup([]);
    const util = require("node:util") as typeof import("node:util");
    expect(JSON.stringify(t.client)).not.toContain(API_KEY);
    expect(util.inspect(t.client, { showHidden: true, depth: 5 })).not.toContain(API_KEY);
    expect(Object.values(t.client)).not.toContain(API_KEY);
  });
});

describe("retries", () => {
  test("5xx then success: backoff with jitter, same Idempotency-Key on every attempt", async () => {
    const t = setup([
      { status: 503, body: { message: "down" } },
      { status: 500 },
      { status: 201, body: routeBody({ secret: "whsec_abcdefgh1234" }) },
    ]);
    const r = await t.client.post(routesPath, { name: "r" }, Route.extend({ secret: z.string() }), {
      idempotencyKey: "create-route-r-0001",
    });
    expect(r).toMatchObject({ status: 201, attempts: 3, replayed: false });
    expect(r.retriedAfter).toEqual([
      { category: "server", status: 503 },
      { category: "server", status: 500 },
    ]);
    expect(t.clock.sleeps).toEqual([188, 375]); // base 250: [125,250] then [250,500], random 0.5
    expect(t.seen.map((s) => s.headers["idempotency-key"])).toEqual([
      "create-route-r-0001",
      "create-route-r-0001",
      "create-route-r-0001",
    ]);
    expect(t.seen.map((s) => s.body)).toEqual(Array(3).fill('{"name":"r"}'));
  });

  test("network failures and timeouts are retried for retry-safe requests", async () => {
    const t = setup([
      { error: "UND_ERR_SOCKET" },
      { error: "UND_ERR_HEADERS_TIMEOUT" },
      { error: "ECONNRESET" },
      { status: 200, body: routeBody() },
    ]);
    await expect(t.client.get(`${routesPath}/r`, Route)).resolves.toMatchObject({ name: "r" });
    expect(t.clock.sleeps).toHaveLength(3);
  });

  test("408 is retried", async () => {
    const t = setup([{ status: 408 }, { status: 200, body: routeBody() }]);
    await expect(t.client.get(`${routesPath}/r`, Route)).resolves.toBeDefined();
  });

  test("429 Retry-After (seconds) is authoritative, even above maxDelay", async () => {
    const t = setup([
      { status: 429, body: { message: "Too many requests, rate limited." }, headers: { "retry-after": "12" } },
      { status: 200, body: routeBody() },
    ]);
    await t.client.get(`${routesPath}/r`, Route);
    expect(t.clock.sleeps).toEqual([12_000]);
  });

  test("429 Retry-After as HTTP-date", async () => {
    const t = setup([
      { status: 429, headers: { "retry-after": "Wed, 01 Jan 2025 00:00:03 GMT" } },
      { status: 200, body: routeBody() },
    ]);
    await t.client.get(`${routesPath}/r`, Route);
    expect(t.clock.sleeps).toEqual([3000]);
  });

  test("429 with invalid Retry-After backs off with jitter", async () => {
    const t = setup([
      { status: 429, headers: { "retry-after": "soon" } },
      { status: 429 },
      { status: 200, body: routeBody() },
    ]);
    await t.client.get(`${routesPath}/r`, Route);
    expect(t.clock.sleeps).toEqual([188, 375]);
  });

  test("409 in progress waits Retry-After, then the replay is reported", async () => {
    const t = setup([
      {
        status: 409,
        body: { message: "a request with this key is in progress" },
        headers: { "idempotent-replayed": "false", "retry-after": "2" },
      },
      {
        status: 201,
        body: keyBody({ secret_key: `txm-sk-${"Q".repeat(64)}` }),
        headers: { "idempotent-replayed": "true" },
      },
    ]);
    const r = await t.client.post(
      `/v2/accounts/${ACCOUNT}/api-keys`,
      { label: "ci", scopes: ["x"] },
      ApiKeyWithSecret,
      { idempotencyKey: "k-1" },
    );
    expect(r).toMatchObject({ replayed: true, attempts: 2, status: 201 });
    expect(t.clock.sleeps).toEqual([2000]);
  });

  test("409 without the in-progress signals is terminal (self-lockout / duplicate)", async () => {
    const t = setup([{ status: 409, body: { message: "domain already exists" } }]);
    const e = await caught(
      t.client.post(`/v2/accounts/${ACCOUNT}/domains`, { domain: "a.example.com" }, z.unknown(), {
        idempotencyKey: "k",
      }),
    );
    expect(e).toMatchObject({
      category: "conflict",
      status: 409,
      attempts: 1,
      retried: false,
      serviceMessage: "domain already exists",
    });
    expect(t.seen).toHaveLength(1);
  });

  test.each([
    [400, "validation"],
    [401, "unauthorized"],
    [403, "forbidden"],
    [404, "not-found"],
    [422, "idempotency-mismatch"],
  ] as const)("%p is not retried: exactly one request (%s)", async (status, kind) => {
    const t = setup([
      { status, body: { message: "nope" } },
      { status: 200, body: routeBody() },
    ]);
    const e = await caught(t.client.post(routesPath, {}, Route, { idempotencyKey: "k" }));
    expect(e).toMatchObject({ kind, status, attempts: 1 });
    expect(t.seen).toHaveLength(1);
    expect(t.clock.sleeps).toEqual([]);
  });

  test("a POST without Idempotency-Key gets one attempt", async () => {
    const t = setup([{ status: 503 }, { status: 200, body: routeBody() }]);
    const e = await caught(t.client.post(routesPath, {}, Route));
    expect(e).toMatchObject({ category: "server", attempts: 1 });
    expect(e.message).toMatch(/not retried: a POST without Idempotency-Key/);
    expect(t.seen).toHaveLength(1);
  });

  test.each([
    "/v2/accounts/a/domains/x.example.com/check-dns",
    "/v2/accounts/a/sub-accounts/s/suspend",
    "/v2/accounts/a/sub-accounts/s/unsuspend",
  ])("%s gets one attempt even on 429 / network failure", async (path) => {
    const t1 = setup([
      { status: 429, headers: { "retry-after": "1" } },
      { status: 200, body: {} },
    ]);
    expect(await caught(t1.client.post(path, undefined, z.unknown(), { idempotencyKey: "k" }))).toMatchObject({
      attempts: 1,
      category: "rate-limited",
    });
    const t2 = setup([{ error: "ECONNRESET" }, { status: 200, body: {} }]);
    expect(await caught(t2.client.post(path, undefined, z.unknown()))).toMatchObject({
      attempts: 1,
      category: "network",
    });
  });

  test("attempt limit", async () => {
    const t = setup(
      Array.from({ length: 5 }, () => ({ status: 502 })),
      { retry: { maxAttempts: 4 } },
    );
    const e = await caught(t.client.get(`${routesPath}/r`, Route));
    expect(e).toMatchObject({ category: "server", status: 502, attempts: 4, retried: true });
    expect(e.message).toMatch(/gave up after 4 attempts/);
    expect(t.seen).toHaveLength(4);
  });

  test("409 in progress does not use up attempts: it waits (within the time budget) until the replay", async () => {
    const inProgress = { status: 409, headers: { "idempotent-replayed": "false", "retry-after": "1" } };
    const t = setup(
      [
        ...Array.from({ length: 10 }, () => inProgress),
        { status: 201, body: routeBody(), headers: { "idempotent-replayed": "true" } },
      ],
      { retry: { maxAttempts: 4 } },
    );
    const res = await t.client.post(routesPath, {}, Route, { idempotencyKey: "k" });
    expect(res.replayed).toBe(true);
    expect(t.seen).toHaveLength(11);
    expect(t.clock.sleeps).toEqual(Array.from({ length: 10 }, () => 1000));
  });

  test("in-progress 409: a 5-minute lease is waited out (the busy-wait budget, not the 120 s failure budget)", async () => {
    const t = setup([
      { status: 409, headers: { "idempotent-replayed": "false", "retry-after": "300" } },
      { status: 201, body: routeBody(), headers: { "idempotent-replayed": "true" } },
    ]);
    const res = await t.client.post(routesPath, {}, Route, { idempotencyKey: "k" });
    expect(res.replayed).toBe(true);
    expect(t.clock.sleeps).toEqual([300_000]);
  });

  test("busy-wait budget: a wait beyond it fails at once instead of sleeping", async () => {
    const t = setup([{ status: 409, headers: { "idempotent-replayed": "false", "retry-after": "300" } }], {
      retry: { maxBusyWaitMs: 120_000 },
    });
    const e = await caught(t.client.post(routesPath, {}, Route, { idempotencyKey: "k" }));
    expect(e).toMatchObject({ category: "in-progress", attempts: 1 });
    expect(e.message).toMatch(/exceed the 120 s budget for waiting on a busy account \(TXMAIL_BUSY_WAIT_SECONDS\)/);
    expect(t.clock.sleeps).toEqual([]);
  });

  test("failure time budget: a 5xx Retry-After beyond it fails at once instead of sleeping", async () => {
    const t = setup([{ status: 503, headers: { "retry-after": "300" } }], { retry: { maxElapsedMs: 120_000 } });
    const e = await caught(t.client.get(`${routesPath}/r`, Route));
    expect(e).toMatchObject({ category: "server", attempts: 1 });
    expect(e.message).toMatch(/exceed the 120 s retry budget/);
    expect(t.clock.sleeps).toEqual([]);
  });

  test("time budget bounds the sum of waits", async () => {
    const t = setup(
      Array.from({ length: 8 }, () => ({ status: 503, headers: { "retry-after": "20" } })),
      { retry: { maxElapsedMs: 60_000 } },
    );
    const e = await caught(t.client.get(`${routesPath}/r`, Route));
    expect(t.clock.sleeps).toEqual([20_000, 20_000, 20_000]);
    expect(e.attempts).toBe(4);
  });

  test("the caller's abort signal stops a retry wait", async () => {
    const ac = new AbortController();
    const clock = new FakeClock(0);
    clock.sleep = async () => {
      ac.abort(new Error("cancelled"));
      throw new Error("cancelled");
    };
    const t = setup([{ status: 503 }, { status: 200, body: routeBody() }], { clock });
    const e = await caught(t.client.get(`${routesPath}/r`, Route, { signal: ac.signal }));
    expect(e.category).toBe("aborted");
  });
});

describe("429 is back-pressure, not failure", () => {
  const tooMany = (retryAfter?: string): Step => ({
    status: 429,
    body: { message: "Too many requests, rate limited." },
    headers: retryAfter === undefined ? {} : { "retry-after": retryAfter },
  });

  test("20 × 429 with Retry-After: 1 do not use up the 8 attempts: each waits 1 s, then the create succeeds", async () => {
    const t = setup([...Array.from({ length: 20 }, () => tooMany("1")), { status: 201, body: routeBody() }]);
    const res = await t.client.post(routesPath, {}, Route, { idempotencyKey: "k" });
    expect(res).toMatchObject({ status: 201, attempts: 21 });
    expect(res.retriedAfter).toHaveLength(20);
    expect(t.clock.sleeps).toEqual(Array.from({ length: 20 }, () => 1000));
    expect(t.seen.every((r) => r.headers["idempotency-key"] === "k")).toBe(true);
    expect(t.logs.filter((l) => l.status === 429).map((l) => l.message)[19]).toMatch(
      /retrying in 1000 ms \(busy: not an attempt; 19 s of 600 s waited, same Idempotency-Key\)/,
    );
  });

  test("without Retry-After a 429 backs off with jitter by its own count, unaffected by failures", async () => {
    const t = setup([
      tooMany(),
      { status: 503 },
      tooMany(),
      tooMany(),
      ...Array.from({ length: 4 }, () => tooMany()),
      { status: 200, body: routeBody() },
    ]);
    await t.client.get(`${routesPath}/r`, Route);
    // random 0.5 → ¾ of 250·2^(n−1), capped at 10 s: 429 #1, 503 #1, 429 #2 … #7
    expect(t.clock.sleeps).toEqual([188, 188, 375, 750, 1500, 3000, 6000, 7500]);
  });

  test("failures keep their attempt limit when 429s come in between", async () => {
    const t = setup([tooMany("1"), { status: 503 }, tooMany("1"), { status: 502 }, tooMany("1"), { status: 500 }], {
      retry: { maxAttempts: 3 },
    });
    const e = await caught(t.client.get(`${routesPath}/r`, Route));
    expect(e).toMatchObject({ category: "server", status: 500, attempts: 6 });
    expect(e.message).toMatch(/gave up after 3 attempts/);
  });

  test("the busy-wait budget bounds a long 429 storm (maxBusyWaitMs)", async () => {
    const t = setup(
      Array.from({ length: 10 }, () => tooMany("2")),
      { retry: { maxBusyWaitMs: 5_000 } },
    );
    const e = await caught(t.client.post(routesPath, {}, Route, { idempotencyKey: "k" }));
    expect(e).toMatchObject({ category: "rate-limited", status: 429, attempts: 3 });
    expect(e.message).toMatch(/waiting 2 s more would exceed the 5 s budget for waiting on a busy account/);
    expect(t.clock.sleeps).toEqual([2000, 2000]);
  });

  test("a 429 storm does not eat the failure time budget", async () => {
    const t = setup(
      [
        ...Array.from({ length: 4 }, () => tooMany("5")), // 20 s waiting on a busy account
        { status: 503, headers: { "retry-after": "2" } },
        { status: 200, body: routeBody() },
      ],
      { retry: { maxElapsedMs: 10_000 } },
    );
    await t.client.get(`${routesPath}/r`, Route);
    expect(t.clock.sleeps).toEqual([5000, 5000, 5000, 5000, 2000]);
  });

  test("time waiting for the account's pace does not count against the failure time budget", async () => {
    const t = setup([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 200, body: routeBody() }], {
      rateLimit: { ratePerSecond: 1, burst: 1 },
      retry: { maxElapsedMs: 1_500 },
    });
    const started = t.clock.now();
    await t.client.get(`${routesPath}/r`, Route);
    // 188 + 375 + 750 ms of backoff is within 1.5 s; the 1 rps pace held each retry until its slot
    expect(t.seen).toHaveLength(4);
    expect(t.clock.now() - started).toBeGreaterThanOrEqual(3000);
  });

  test("a 429 on a one-shot action still slows the account's pace, then fails at once", async () => {
    const t = setup([tooMany("3")], { rateLimit: {} });
    const e = await caught(
      t.client.post(`/v2/accounts/${ACCOUNT}/domains/x.example.com/check-dns`, undefined, z.unknown()),
    );
    expect(e).toMatchObject({ category: "rate-limited", attempts: 1 });
    expect(t.client.pace).toMatchObject({ ratePerSecond: 97 / 2, pausedForMs: 3000 });
  });
});

describe("one pace per account per process, shared by every key", () => {
  const OTHER_ACCOUNT = "44444444-4444-4444-8444-444444444444";

  test("a 429 seen through one key slows every client of that account, and no other account", async () => {
    const t = setup([{ status: 429, headers: { "retry-after": "2" } }], { rateLimit: {} });
    const sameAccountOtherKey = createClient({
      apiKey: `txm-sk-${"Yy18".repeat(16)}`,
      accountId: ACCOUNT,
      baseUrl: ORIGIN,
      dispatcher: t.agent,
      clock: t.clock,
    });
    const otherAccount = createClient({
      apiKey: API_KEY,
      accountId: OTHER_ACCOUNT,
      baseUrl: ORIGIN,
      dispatcher: t.agent,
      clock: t.clock,
    });
    expect(sameAccountOtherKey.pace).toEqual({
      ratePerSecond: 97,
      ceilingPerSecond: 97,
      pausedForMs: 0,
      recoversInMs: 0,
      sharedBy: "process",
    });
    // one request through the first key, answered 429 (a one-shot action, so it stops there)
    await caught(t.client.post(`/v2/accounts/${ACCOUNT}/sub-accounts/s/suspend`, undefined, z.unknown()));
    expect(sameAccountOtherKey.pace).toEqual({
      ratePerSecond: 48.5,
      ceilingPerSecond: 97,
      pausedForMs: 2000,
      // the pause, then one doubling (250 ms) from half the ceiling back to it
      recoversInMs: 2250,
      sharedBy: "process",
    });
    expect(otherAccount.pace).toEqual({
      ratePerSecond: 97,
      ceilingPerSecond: 97,
      pausedForMs: 0,
      recoversInMs: 0,
      sharedBy: "process",
    });
  });
});

describe("rate limiting in the loop", () => {
  test("a 429 pauses the shared bucket for every client of the account", async () => {
    const clock = new FakeClock(Date.parse(NOW));
    const t = setup(
      [
        { status: 429, headers: { "retry-after": "5" } },
        { status: 200, body: routeBody() },
        { status: 200, body: routeBody() },
      ],
      {
        clock,
        rateLimit: { ratePerSecond: 100, burst: 200 },
      },
    );
    await t.client.get(`${routesPath}/r`, Route);
    // a second client for the same account (a different resource operation) shares the paused bucket
    const other = createClient({
      apiKey: API_KEY,
      accountId: ACCOUNT,
      baseUrl: ORIGIN,
      dispatcher: t.agent,
      clock,
      rateLimit: {},
    });
    const before = clock.now();
    await other.get(`${routesPath}/r`, Route);
    expect(clock.now() - before).toBeGreaterThan(0); // had to wait for a slot at the halved rate
    expect(clock.sleeps[0]).toBe(5000);
  });
});

describe("validation", () => {
  test("schema mismatch names method, endpoint and field path", async () => {
    const t = setup([
      {
        status: 200,
        body: { object: "list", data: [routeBody(), routeBody({ enabled: "yes" })], pagination: { has_more: false } },
      },
    ]);
    const e = await caught(
      (async () => {
        for await (const _ of t.client.list(routesPath, Route)) void _;
      })(),
    );
    expect(e.category).toBe("schema");
    expect(e.message).toContain(`GET ${routesPath}`);
    expect(e.message).toContain("data[1].enabled");
    expect(e.issues[0]).toMatchObject({ path: "data[1].enabled" });
    expect(t.seen).toHaveLength(1); // a schema error is not retried
  });

  test("a 2xx that is not JSON is a schema error", async () => {
    const t = setup([{ status: 200, body: "<html>hello</html>", headers: { "content-type": "text/html" } }]);
    const e = await caught(t.client.get("/v2/ping", MessageResponse));
    expect(e.category).toBe("schema");
    expect(e.message).toMatch(/not valid JSON/);
  });

  test("a non-JSON error body becomes a short snippet", async () => {
    const t = setup([
      { status: 400, body: `<html>${"x".repeat(1000)}</html>`, headers: { "content-type": "text/html" } },
    ]);
    const e = await caught(t.client.get("/v2/ping", MessageResponse));
    expect(e.serviceMessage!.length).toBeLessThanOrEqual(201);
  });
});

describe("secrets and logs", () => {
  test("403 names the needed scope and the allow-list possibility", async () => {
    const t = setup([{ status: 403, body: { message: "forbidden" } }]);
    const e = await caught(t.client.delete(`${routesPath}/r`, undefined, { scope: "routes:delete:all" }));
    expect(e.message).toMatch(/ip_allow_list/);
    expect(e.message).toContain("routes:delete:all");
  });

  test("no key, secret or idempotency key in errors or log lines", async () => {
    const secretKey = `txm-sk-${"S".repeat(64)}`;
    const t = setup([
      { status: 503 },
      { status: 201, body: keyBody({ secret_key: secretKey }) },
      // a later error whose message echoes both secrets
      { status: 400, body: { message: `bad: ${secretKey} / Bearer ${API_KEY} / ${API_KEY}` } },
      { status: 200, body: { ...keyBody(), label: 42, secret_key: "another-secret-value" } },
    ]);
    const created = await t.client.post(
      `/v2/accounts/${ACCOUNT}/api-keys`,
      { label: "ci", scopes: ["x"] },
      ApiKeyWithSecret,
      { idempotencyKey: "idem-key-value-xyz" },
    );
    expect(created.data.secret_key).toBe(secretKey); // the caller does get the secret itself
    const e1 = await caught(t.client.get("/v2/ping", MessageResponse));
    const e2 = await caught(t.client.get("/k", ApiKeyWithSecret));
    const text = [
      e1.message,
      e1.stack,
      JSON.stringify(e1),
      e2.message,
      e2.stack,
      JSON.stringify(e2),
      JSON.stringify(t.logs),
    ].join("\n");
    for (const s of [API_KEY, secretKey, "another-secret-value", "idem-key-value-xyz"]) expect(text).not.toContain(s);
    expect(
      t.logs.some(
        (l) => l.level === "warn" && /retrying in 188 ms/.test(l.message) && /same Idempotency-Key/.test(l.message),
      ),
    ).toBe(true);
    expect(t.logs.find((l) => l.delayMs === 188)).toMatchObject({ method: "POST", attempt: 1, status: 503 });
  });

  test("every attempt yields exactly one log entry (success, retry, terminal, give-up, not retry-safe)", async () => {
    const t = setup([
      { status: 503 },
      { error: "ECONNRESET" },
      { status: 200, body: routeBody() }, // GET: 3 attempts
      { status: 404, body: { message: "route not found" } }, // GET: 1
      { status: 502 },
      { status: 502 }, // GET with maxAttempts 2 below: 2
      { error: "ECONNRESET" }, // POST without key: 1
      { status: 503 }, // POST without key: 1
    ]);
    await t.client.get(`${routesPath}/r`, Route);
    await caught(t.client.get(`${routesPath}/r`, Route));
    const c2 = createClient({
      apiKey: API_KEY,
      baseUrl: ORIGIN,
      dispatcher: t.agent,
      clock: t.clock,
      rateLimit: false,
      retry: { maxAttempts: 2 },
      logger: (e) => t.logs.push(e),
    });
    await caught(c2.get(`${routesPath}/r`, Route));
    await caught(t.client.post(routesPath, {}, Route));
    await caught(t.client.post(routesPath, {}, Route));
    expect(t.logs.map((l) => l.attempt)).toEqual([1, 2, 3, 1, 1, 2, 1, 1]);
    expect(t.logs.map((l) => l.level)).toEqual(["warn", "warn", "debug", "debug", "warn", "warn", "debug", "debug"]);
    expect(t.logs[5]!.message).toMatch(/gave up after 2 attempts/);
  });

  test("a throwing logger does not break requests", async () => {
    const t = setup([{ status: 200, body: { message: "pong" } }], {
      logger: () => {
        throw new Error("boom");
      },
    });
    await expect(t.client.ping()).resolves.toEqual({ message: "pong" });
  });
});

describe("configuration", () => {
  test("rejects unusable base URLs and keys", () => {
    expect(() => createClient({ apiKey: "" })).toThrow(TypeError);
    expect(() => createClient({ apiKey: API_KEY, baseUrl: "ftp://x" })).toThrow(/https/);
    expect(() => createClient({ apiKey: API_KEY, baseUrl: "https://u:p@x" })).toThrow(/credentials/);
    expect(() => createClient({ apiKey: API_KEY, baseUrl: "not a url" })).toThrow(/not a valid URL/);
    expect(() => createClient({ apiKey: API_KEY, retry: { maxAttempts: 0 } })).toThrow(RangeError);
  });
  test("defaults to the public base URL", () => {
    expect(createClient({ apiKey: API_KEY, rateLimit: false }).baseUrl).toBe("https://api.ahasend.com/");
  });
  test("plain http to a non-loopback host logs a warning", () => {
    const logs: LogEntry[] = [];
    createClient({ apiKey: API_KEY, baseUrl: "http://example.com", logger: (l) => logs.push(l), rateLimit: false });
    createClient({ apiKey: API_KEY, baseUrl: "http://127.0.0.1:9", logger: (l) => logs.push(l), rateLimit: false });
    expect(logs).toHaveLength(1);
    expect(logs[0]!.message).toMatch(/unencrypted/);
  });
});
