// The client against the emulator: a failure the service replays from its idempotency store
// (`Idempotent-Replayed: true`, docs/contract/idempotency.md#rule-5) is marked as such — `err.replayed` and
// "(replayed)" in the message and the log line — so neither the provider nor a reader takes an
// answer stored up to 24 h ago for today's.
import { RouteWithSecret, paths } from "../../../provider/api";
import { TxmailApiError, createClient, type LogEntry } from "../../../provider/client";
import { type Emu, makeKey, start, uniq } from "../emulator/helpers";

let emu: Emu;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

async function failure(p: Promise<unknown>): Promise<TxmailApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof TxmailApiError)) throw new Error(`expected a TxmailApiError, got ${String(e)}`);
  return e;
}

test("Idempotency rule 5: a replayed 403 is marked replayed; the fresh one is not", async () => {
  const narrow = await makeKey(emu, ["routes:write:a.replay.example.com"]);
  const logs: LogEntry[] = [];
  const client = createClient({
    apiKey: narrow.secret,
    accountId: emu.accountId,
    baseUrl: emu.baseUrl,
    rateLimit: false,
    logger: (e) => logs.push(e),
  });
  const body = { name: uniq("r"), url: "https://h.example.com/in", recipient: "in@b.replay.example.com" };
  const idempotencyKey = uniq("replayed-403");
  const post = () => client.post(paths.routes(emu.accountId), body, RouteWithSecret, { idempotencyKey });

  const fresh = await failure(post());
  expect([fresh.status, fresh.category, fresh.replayed]).toEqual([403, "forbidden", false]);
  expect(fresh.message).toMatch(/^POST \S+ failed with HTTP 403: missing scope/);

  const replayed = await failure(post());
  expect([replayed.status, replayed.category, replayed.replayed, replayed.attempts]).toEqual([
    403,
    "forbidden",
    true,
    1,
  ]);
  expect(replayed.message).toMatch(/^POST \S+ failed with HTTP 403 \(replayed\): missing scope/);
  expect(replayed.message).toMatch(/earlier request with the same Idempotency-Key; it may no longer hold/);
  expect(replayed.toJSON()).toMatchObject({ replayed: true });
  expect(logs.map((l) => l.message).filter((m) => m.includes("403"))).toEqual([
    expect.not.stringContaining("replayed"),
    expect.stringContaining("-> 403 (replayed) (forbidden, not retryable)"),
  ]);
});
