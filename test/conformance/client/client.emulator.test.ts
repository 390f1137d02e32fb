// The client against the shared emulator (emulator/server.ts) over loopback: real records, real
// idempotency (stored replays, in-progress 409, 422), real pagination, real rate limiting, and the
// emulator's fault injection. Request counts come from the emulator's counters.
//
// What the emulator cannot produce stays in client.stub.test.ts: a schema-breaking response body,
// and a headers timeout while the server still works.
import { z } from "zod";
import { ApiKey, ApiKeyWithSecret, paths } from "../../../provider/api";
import {
  TxmailApiError,
  closeSharedDispatchers,
  createClient,
  type LogEntry,
  type PaceSnapshot,
  type TxmailClient,
  type TxmailClientOptions,
} from "../../../provider/client";
import { apiErrorCatcher } from "./apiErrors";
import { controlClient, type EmulatorControl } from "../../../emulator/control";
import { startEmulator, type RunningEmulator } from "../../../emulator/server";

const KEYS = "/v2/accounts/{account_id}/api-keys";
const POST_KEYS = `POST ${KEYS}`;
const GET_KEYS = `GET ${KEYS}`;

const logs: LogEntry[] = [];
const errors: TxmailApiError[] = [];
const secrets: string[] = [];

const caught = apiErrorCatcher(errors);

function clientFor(emu: RunningEmulator, over: Partial<TxmailClientOptions> = {}): TxmailClient {
  return createClient({
    apiKey: emu.apiKey,
    accountId: emu.accountId,
    baseUrl: emu.baseUrl,
    retry: { baseDelayMs: 20, maxDelayMs: 500 },
    logger: (e) => logs.push(e),
    ...over,
  });
}

const keyBody = (label: string) => ({ label, scopes: ["routes:read:all"] });

async function countKeys(c: TxmailClient, emu: RunningEmulator, label: string): Promise<number> {
  let n = 0;
  for await (const k of c.list(paths.apiKeys(emu.accountId), ApiKey)) if (k.label === label) n++;
  return n;
}

describe("client against the emulator", () => {
  let emu: RunningEmulator;
  let ctl: EmulatorControl;
  let client: TxmailClient;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, control: true });
    ctl = controlClient(emu);
    client = clientFor(emu);
  });
  afterEach(async () => {
    await ctl.clearFaults();
    await ctl.resetCounters();
  });
  afterAll(async () => {
    await emu?.close();
    await closeSharedDispatchers();
  });

  test("ping authenticates", async () => {
    await expect(client.ping()).resolves.toHaveProperty("message");
  });

  describe("idempotent creates survive faults without duplicates", () => {
    test("injected 5xx before execution: retried with the same key, one key created", async () => {
      await ctl.injectFault({ method: "POST", path: KEYS, kind: "error-before", status: 503, count: 2 });
      const r = await client.post(paths.apiKeys(emu.accountId), keyBody("cc-5xx"), ApiKeyWithSecret, {
        idempotencyKey: "idem-cc-5xx",
      });
      secrets.push(r.data.secret_key);
      expect(r).toMatchObject({ status: 201, attempts: 3, replayed: false });
      expect(await ctl.requestCount(POST_KEYS)).toBe(3);
      expect(await countKeys(client, emu, "cc-5xx")).toBe(1);
    });

    test("response dropped after execution: the retry replays the stored 201, one key", async () => {
      await ctl.injectFault({ method: "POST", path: KEYS, kind: "drop-after" });
      const r = await client.post(paths.apiKeys(emu.accountId), keyBody("cc-drop"), ApiKeyWithSecret, {
        idempotencyKey: "idem-cc-drop",
      });
      secrets.push(r.data.secret_key);
      expect(r).toMatchObject({ status: 201, attempts: 2, replayed: true });
      expect(await ctl.requestCount(POST_KEYS)).toBe(2);
      expect(await countKeys(client, emu, "cc-drop")).toBe(1);
    });

    test("connection dropped before execution: retried, one key", async () => {
      await ctl.injectFault({ method: "POST", path: KEYS, kind: "drop-before" });
      const r = await client.post(paths.apiKeys(emu.accountId), keyBody("cc-drop-before"), ApiKeyWithSecret, {
        idempotencyKey: "idem-cc-drop-before",
      });
      secrets.push(r.data.secret_key);
      expect(r).toMatchObject({ attempts: 2, replayed: false });
      expect(await countKeys(client, emu, "cc-drop-before")).toBe(1);
    });

    test("409 in progress (a concurrent call with the same key): Retry-After honoured, then the replay", async () => {
      await ctl.injectFault({ method: "POST", path: KEYS, kind: "delay", delayMs: 1500 });
      const call = () =>
        client.post(paths.apiKeys(emu.accountId), keyBody("cc-inprogress"), ApiKeyWithSecret, {
          idempotencyKey: "idem-cc-inprogress",
        });
      const first = call();
      await new Promise((r) => setTimeout(r, 200)); // the first holds the key now
      const t0 = Date.now();
      const second = await call();
      const waited = Date.now() - t0;
      const a = await first;
      secrets.push(a.data.secret_key);
      expect(second.data.id).toBe(a.data.id);
      expect(second.replayed).toBe(true);
      // one or two 409s, depending on when the 1.5 s execution ends relative to the 1 s waits
      expect(second.retriedAfter.length).toBeGreaterThanOrEqual(1);
      expect(second.retriedAfter.every((f) => f.category === "in-progress" && f.status === 409)).toBe(true);
      expect(waited).toBeGreaterThanOrEqual(1000); // Retry-After: 1, not the 20 ms backoff
      expect(logs.some((l) => l.delayMs === 1000 && /in-progress/.test(l.message))).toBe(true);
      expect(await countKeys(client, emu, "cc-inprogress")).toBe(1);
    });

    test("headers timeout while the emulator still works -> retry -> in-progress 409 -> replay", async () => {
      // undici's headers timer has ~1 s resolution: 250 ms fires after 1–1.5 s; the work takes 2.5 s.
      await ctl.injectFault({ method: "POST", path: KEYS, kind: "delay", delayMs: 2500 });
      const c = clientFor(emu, { timeouts: { headersMs: 250 } });
      const r = await c.post(paths.apiKeys(emu.accountId), keyBody("cc-timeout"), ApiKeyWithSecret, {
        idempotencyKey: "idem-cc-timeout",
      });
      secrets.push(r.data.secret_key);
      expect(r.replayed).toBe(true);
      expect(r.retriedAfter[0]).toEqual({ category: "timeout" });
      expect(r.retriedAfter.slice(1).some((f) => f.category === "in-progress")).toBe(true);
      expect(await countKeys(client, emu, "cc-timeout")).toBe(1);
    }, 30_000);

    test("a DELETE whose response was dropped is retried; the 404 surfaces (the caller treats it as gone)", async () => {
      const r = await client.post(paths.apiKeys(emu.accountId), keyBody("cc-delete"), ApiKeyWithSecret, {
        idempotencyKey: "idem-cc-delete",
      });
      secrets.push(r.data.secret_key);
      await ctl.injectFault({ method: "DELETE", path: `${KEYS}/{key_id}`, kind: "drop-after" });
      const e = await caught(client.delete(paths.apiKey(emu.accountId, r.data.id)));
      expect(e).toMatchObject({ category: "not-found", attempts: 2 });
      expect(await countKeys(client, emu, "cc-delete")).toBe(0);
    });

    test("5xx after the work committed: the service releases the key and re-executes (idempotency rule 6)", async () => {
      // Not a client bug but worth pinning down: the retry creates a second object, and the client
      // reports it through retriedAfter so a provider can reconcile (see the client's report).
      await ctl.injectFault({ method: "POST", path: KEYS, kind: "error-after", status: 500 });
      const r = await client.post(paths.apiKeys(emu.accountId), keyBody("cc-error-after"), ApiKeyWithSecret, {
        idempotencyKey: "idem-cc-error-after",
      });
      secrets.push(r.data.secret_key);
      expect(r).toMatchObject({ replayed: false, attempts: 2, retriedAfter: [{ category: "server", status: 500 }] });
      expect(await countKeys(client, emu, "cc-error-after")).toBe(2);
    });

    test("a POST without a key is never retried", async () => {
      await ctl.injectFault({ method: "POST", path: KEYS, kind: "error-before", status: 503 });
      const e = await caught(client.post(paths.apiKeys(emu.accountId), keyBody("cc-nokey"), ApiKeyWithSecret));
      expect(e).toMatchObject({ category: "server", status: 503, attempts: 1 });
      expect(await ctl.requestCount(POST_KEYS)).toBe(1);
    });
  });

  describe("terminal errors: exactly one request", () => {
    test("404", async () => {
      const e = await caught(client.get(paths.apiKey(emu.accountId, "00000000-0000-4000-8000-000000000000"), ApiKey));
      expect(e).toMatchObject({ category: "not-found", status: 404, attempts: 1 });
      expect(await ctl.requestCount(`GET ${KEYS}/{key_id}`)).toBe(1);
    });

    test("400 carries the service's message", async () => {
      const e = await caught(
        client.post(paths.apiKeys(emu.accountId), { label: "", scopes: [] }, ApiKeyWithSecret, {
          idempotencyKey: "idem-cc-400",
        }),
      );
      expect(e).toMatchObject({ category: "validation", status: 400, attempts: 1 });
      expect(e.serviceMessage).toBeTruthy();
      expect(await ctl.requestCount(POST_KEYS)).toBe(1);
    });

    test("422: same key, different body; the message names the derivation bug", async () => {
      const path = paths.apiKeys(emu.accountId);
      const r = await client.post(path, keyBody("cc-422"), ApiKeyWithSecret, { idempotencyKey: "idem-cc-422" });
      secrets.push(r.data.secret_key);
      const e = await caught(
        client.post(path, keyBody("cc-422-other"), ApiKeyWithSecret, { idempotencyKey: "idem-cc-422" }),
      );
      expect(e).toMatchObject({ category: "idempotency-mismatch", status: 422, attempts: 1 });
      expect(e.message).toMatch(/bug in idempotency-key derivation/);
      expect(await ctl.requestCount(POST_KEYS)).toBe(2);
    });

    test("401 with a wrong key, which is not in the message", async () => {
      const wrong = `bad-sk-${"q".repeat(64)}`;
      const e = await caught(clientFor(emu, { apiKey: wrong }).get(paths.apiKeys(emu.accountId), z.unknown()));
      expect(e).toMatchObject({ category: "unauthorized", status: 401, attempts: 1 });
      expect(e.message).not.toContain(wrong);
      expect(await ctl.requestCount(GET_KEYS)).toBe(1);
    });
  });

  describe("rate limiting", () => {
    test("injected 429s (Retry-After: 0 and none) are absorbed", async () => {
      await ctl.injectFault({ method: "GET", path: KEYS, kind: "rate-limit", retryAfter: 0, count: 5 });
      await ctl.injectFault({ method: "GET", path: KEYS, kind: "rate-limit", retryAfter: null, count: 5 });
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () => client.get(paths.apiKeys(emu.accountId), z.unknown())),
      );
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);
      expect(await ctl.requestCount(GET_KEYS)).toBe(30);
    });

    test("20 × 429 across two parallel creates: both succeed within the default 8 attempts, then the pace recovers", async () => {
      // A fresh emulator (a fresh origin, so a fresh pace) with the service's real limit, and the
      // client exactly as the provider builds it: default retry and pacing.
      const busy = await startEmulator({ port: 0, control: true, rateLimit: { rps: 100, burst: 200 } });
      try {
        await controlClient(busy).injectFault({
          method: "*",
          path: "/v2/*",
          kind: "rate-limit",
          retryAfter: 0,
          count: 20,
        });
        const seen: Array<LogEntry & { pace: PaceSnapshot }> = [];
        const c = createClient({
          apiKey: busy.apiKey,
          accountId: busy.accountId,
          baseUrl: busy.baseUrl,
          logger: (e) => seen.push({ ...e, pace: c.pace! }),
        });
        const creates = ["busy-a", "busy-b"].map((label) =>
          c.post(paths.apiKeys(busy.accountId), keyBody(label), ApiKeyWithSecret, { idempotencyKey: `k-${label}` }),
        );
        const results = await Promise.all(creates);
        for (const r of results) secrets.push(r.data.secret_key);
        // The storm drove the pace to its floor; once 429s stop it is back at the limit in seconds.
        // What the client decided at the last 429, read from its pace (not a wall clock, which a
        // loaded machine stretches): how deep it cut, and when the climb it scheduled ends.
        const last = seen.filter((l) => l.status === 429).pop()!.pace;
        expect(last.ratePerSecond).toBeLessThan(5); // cut deep (each 429 halves what the climb regained)
        // The pause (Retry-After 0: none) and ~1.7 s of doubling from the 1 rps floor (log2(97) × 250 ms).
        expect(last.recoversInMs).toBeGreaterThan(1_000);
        expect(last.recoversInMs).toBeLessThan(2_000);
        expect(c.pace!.recoversInMs).toBeLessThanOrEqual(last.recoversInMs); // no 429 since: the climb goes on
        expect(await controlClient(busy).requestCount(POST_KEYS)).toBe(22); // 20 answered 429, then one create each
        expect(results.map((r) => r.attempts).reduce((a, b) => a + b)).toBe(22);
        expect(results.every((r) => r.retriedAfter.every((f) => f.category === "rate-limited"))).toBe(true);
        expect(seen.filter((l) => /busy: not an attempt/.test(l.message))).toHaveLength(20);
        expect(await countKeys(c, busy, "busy-a")).toBe(1);
        expect(await countKeys(c, busy, "busy-b")).toBe(1);
      } finally {
        await busy.close();
      }
    }, 60_000);

    test("client-side pacing alone avoids 429s when it is set below the service's limit", async () => {
      // The client paces at 8 rps, far below the service's 50: on a loaded machine a stalled event
      // loop sends the requests whose slots passed during the stall together, and the service's
      // burst of 10 holds them until a stall of over a second. Unpaced, 40 requests overrun it.
      const limited = await startEmulator({ port: 0, control: true, rateLimit: { rps: 50, burst: 10 } });
      try {
        const c = clientFor(limited, { rateLimit: { ratePerSecond: 8, burst: 1 } });
        const results = await Promise.allSettled(
          Array.from({ length: 40 }, () => c.get(paths.apiKeys(limited.accountId), z.unknown())),
        );
        expect(results.filter((r) => r.status === "rejected")).toEqual([]);
        expect(await controlClient(limited).requestCount(GET_KEYS)).toBe(40); // not a single 429
      } finally {
        await limited.close();
      }
    }, 30_000);

    test("a real 429 storm (emulator limit 20 rps, burst 5) is absorbed with zero errors", async () => {
      const slow = await startEmulator({ port: 0, control: true, rateLimit: { rps: 20, burst: 5 } });
      try {
        const c = clientFor(slow, { retry: { maxAttempts: 8, maxElapsedMs: 60_000, baseDelayMs: 50 } });
        const results = await Promise.allSettled(
          Array.from({ length: 60 }, () => c.get(paths.apiKeys(slow.accountId), z.unknown())),
        );
        expect(results.filter((r) => r.status === "rejected")).toEqual([]);
        const total = await controlClient(slow).requestCount(GET_KEYS);
        expect(total).toBeGreaterThan(60); // there were 429s...
        expect(total).toBeLessThan(240); // ...and the shared bucket kept them from multiplying
      } finally {
        await slow.close();
      }
    }, 60_000);
  });

  describe("pagination", () => {
    test("250 keys paged completely in 3 requests; findById stops early", async () => {
      const fresh = await startEmulator({ port: 0, control: true });
      try {
        const c = clientFor(fresh);
        // 249 + the emulator's root key = 250 items
        for (let i = 0; i < 249; i++) {
          const r = await c.post(paths.apiKeys(fresh.accountId), keyBody(`page-${i}`), ApiKeyWithSecret, {
            idempotencyKey: `idem-cc-page-${i}`,
          });
          secrets.push(r.data.secret_key);
        }
        const fctl = controlClient(fresh);
        await fctl.resetCounters();
        const ids: string[] = [];
        for await (const k of c.list(paths.apiKeys(fresh.accountId), ApiKey)) ids.push(k.id);
        expect(ids).toHaveLength(250);
        expect(new Set(ids).size).toBe(250);
        expect(await fctl.requestCount(GET_KEYS)).toBe(3);

        await fctl.resetCounters();
        expect(await c.findById(paths.apiKeys(fresh.accountId), ApiKey, ids[150]!)).toMatchObject({ id: ids[150] });
        expect(await fctl.requestCount(GET_KEYS)).toBe(2);
      } finally {
        await fresh.close();
      }
    }, 60_000);
  });

  test("no API key, secret or idempotency key in any error or log line", () => {
    const text = [
      ...errors.flatMap((e) => [e.message, e.stack ?? "", JSON.stringify(e)]),
      ...logs.map((l) => JSON.stringify(l)),
    ].join("\n");
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(emu.apiKey);
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).not.toMatch(/idem-cc-/);
    expect(text).not.toMatch(/-sk-[A-Za-z0-9]{64}/);
  });
});
