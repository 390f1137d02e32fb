// The client against the shared emulator (emulator/server.ts) over loopback: real records, real
// idempotency, real pagination, real error bodies. Requests are counted from the client's own log
// hook (one entry per attempt), so these tests do not depend on the emulator's control API.
//
// Fault injection (5xx, dropped responses, in-progress 409, 429 storms) stays in client.stub.test.ts
// until the emulator's control API for it is settled.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ApiKey, ApiKeyWithSecret, Route, RouteWithSecret, paths } from "../../../provider/api";
import {
  TxmailApiError,
  closeSharedDispatchers,
  createClient,
  type LogEntry,
  type TxmailClient,
} from "../../../provider/client";

interface Emulator {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  close(): Promise<void>;
}
type StartEmulator = (opts: { port: number; control?: boolean }) => Promise<Emulator>;

const serverPath = join(__dirname, "../../../emulator/server.ts");
const haveEmulator = existsSync(serverPath);
const describeEmu = haveEmulator ? describe : describe.skip;

let emu: Emulator;
let client: TxmailClient;
const logs: LogEntry[] = [];
const errors: TxmailApiError[] = [];
const secrets: string[] = [];

/** Attempts made since `mark` (every attempt yields exactly one log entry with attempt >= 1). */
const attemptsSince = (mark: number) => logs.slice(mark).filter((l) => l.attempt >= 1).length;

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

describeEmu("client against the emulator", () => {
  beforeAll(async () => {
    // Loaded only when present: the emulator is written in parallel with the client.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startEmulator } = require(serverPath) as { startEmulator: StartEmulator };
    emu = await startEmulator({ port: 0, control: true });
    client = createClient({
      apiKey: emu.apiKey,
      accountId: emu.accountId,
      baseUrl: emu.baseUrl,
      logger: (e) => logs.push(e),
    });
  });
  afterAll(async () => {
    await emu?.close();
    await closeSharedDispatchers();
  });

  test("ping authenticates", async () => {
    await expect(client.ping()).resolves.toHaveProperty("message");
  });

  test("250 routes: created once each, paged completely in 3 requests", async () => {
    for (let i = 0; i < 250; i++) {
      const r = await client.post(
        paths.routes(emu.accountId),
        { name: `page-${i}`, url: "https://hooks.example.com/in", recipient: "" },
        RouteWithSecret,
        { idempotencyKey: `idem-cc-page-${i}` },
      );
      secrets.push(r.data.secret);
    }
    const mark = logs.length;
    const names: string[] = [];
    for await (const r of client.list(paths.routes(emu.accountId), Route)) names.push(r.name);
    expect(names.filter((n) => n.startsWith("page-"))).toHaveLength(250);
    expect(attemptsSince(mark)).toBe(3);
  });

  test("the same Idempotency-Key replays: same id and secret, one record", async () => {
    const body = { label: "client-conf-replay", scopes: ["routes:read:all"] };
    const first = await client.post(paths.apiKeys(emu.accountId), body, ApiKeyWithSecret, {
      idempotencyKey: "idem-cc-replay",
    });
    const again = await client.post(paths.apiKeys(emu.accountId), body, ApiKeyWithSecret, {
      idempotencyKey: "idem-cc-replay",
    });
    secrets.push(first.data.secret_key);
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.data.id).toBe(first.data.id);
    expect(again.data.secret_key).toBe(first.data.secret_key);
    let n = 0;
    for await (const k of client.list(paths.apiKeys(emu.accountId), ApiKey)) if (k.label === body.label) n++;
    expect(n).toBe(1);
  });

  test("the same key with a different body is a 422 naming the derivation bug, not retried", async () => {
    const path = paths.apiKeys(emu.accountId);
    const r = await client.post(path, { label: "client-conf-422", scopes: ["routes:read:all"] }, ApiKeyWithSecret, {
      idempotencyKey: "idem-cc-422",
    });
    secrets.push(r.data.secret_key);
    const mark = logs.length;
    const e = await caught(
      client.post(path, { label: "client-conf-422-b", scopes: ["routes:read:all"] }, ApiKeyWithSecret, {
        idempotencyKey: "idem-cc-422",
      }),
    );
    expect(e).toMatchObject({ kind: "idempotency-mismatch", status: 422, attempts: 1 });
    expect(e.message).toMatch(/bug in idempotency-key derivation/);
    expect(attemptsSince(mark)).toBe(1);
  });

  test("404 is not retried: exactly one request", async () => {
    const mark = logs.length;
    const e = await caught(client.get(paths.route(emu.accountId, "00000000-0000-4000-8000-000000000000"), Route));
    expect(e).toMatchObject({ kind: "not-found", status: 404, attempts: 1 });
    expect(attemptsSince(mark)).toBe(1);
  });

  test("400 is not retried and carries the service's message", async () => {
    const mark = logs.length;
    const e = await caught(
      client.post(paths.apiKeys(emu.accountId), { label: "", scopes: [] }, ApiKeyWithSecret, {
        idempotencyKey: "idem-cc-400",
      }),
    );
    expect(e).toMatchObject({ kind: "validation", status: 400, attempts: 1 });
    expect(e.serviceMessage).toBeTruthy();
    expect(attemptsSince(mark)).toBe(1);
  });

  test("a wrong key is a 401, not retried, and the key is not in the message", async () => {
    const wrong = `bad-sk-${"q".repeat(64)}`;
    const c = createClient({ apiKey: wrong, accountId: emu.accountId, baseUrl: emu.baseUrl, rateLimit: false });
    const e = await caught(c.get(paths.routes(emu.accountId), z.unknown()));
    expect(e).toMatchObject({ kind: "unauthorized", status: 401, attempts: 1 });
    expect(e.message).not.toContain(wrong);
  });

  test("findById stops early", async () => {
    const all: string[] = [];
    for await (const r of client.list(paths.routes(emu.accountId), Route)) all.push(r.id);
    const mark = logs.length;
    expect(await client.findById(paths.routes(emu.accountId), Route, all[5]!)).toMatchObject({ id: all[5] });
    expect(attemptsSince(mark)).toBe(1);
  });

  test("no API key, secret or idempotency key in any error or log line", () => {
    const text = [
      ...errors.flatMap((e) => [e.message, e.stack ?? "", JSON.stringify(e)]),
      ...logs.map((l) => JSON.stringify(l)),
    ].join("\n");
    expect(text).not.toContain(emu.apiKey);
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).not.toMatch(/idem-cc-/);
  });
});

if (!haveEmulator) {
  test("emulator not present yet: emulator-backed client tests skipped", () => {
    expect(existsSync(serverPath)).toBe(false);
  });
}
