// Limits (docs/contract/limits.md): rate limits (per account, shared by its keys; 429 body and Retry-After; refilled
// by the emulator clock), message recipient and content limits, retention and schedule bounds.
import { type Emu, expectError, makeKey, makeSub, start, verifiedDomain } from "./helpers";

// The rate-limit cases refill at one token per 10 s of the emulator clock, so the real time a loaded
// machine takes between two requests (seconds, at load averages above 15) never refills a token the
// case counts on; they advance the clock for every refill they want. The message cases only need a
// bucket that does not run dry.
const SLOW_REFILL = { rps: 0.1, burst: 5 };
const FULL_BURST_MS = 60_000; // 6 tokens' worth at 0.1 rps: the whole burst of 5
const ONE_TOKEN_MS = 10_000;

let emu: Emu;
let rated: Emu;
beforeAll(async () => {
  emu = await start({ rateLimit: { rps: 10, burst: 5 } });
  rated = await start({ rateLimit: SLOW_REFILL });
});
afterAll(async () => {
  await emu.close();
  await rated.close();
});

async function drain(key: string, accountPath = "/v2/ping", n = 12) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await rated.req("GET", accountPath, { key })).status);
  return out;
}

describe("Limits", () => {
  test("Limits: over the burst, 429 {message:'Too many requests, rate limited.'} with Retry-After; shared by the account's keys", async () => {
    await rated.control.advanceClock(FULL_BURST_MS);
    const k = await makeKey(rated, ["routes:read:all"]);
    const first = await drain(rated.apiKey, "/v2/ping", 4);
    expect(first.every((s) => s === 200)).toBe(true);
    // The account's other key shares the bucket: it is exhausted now.
    const r = await rated.req("GET", "/v2/ping", { key: k.secret });
    expectError(r, 429);
    expect(r.body).toEqual({ message: "Too many requests, rate limited." });
    expect(r.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
  });

  test("Limits: the counters tell each key's admitted requests and 429s apart, with the key's account", async () => {
    await rated.control.advanceClock(FULL_BURST_MS);
    const k = await makeKey(rated, ["routes:read:all"]);
    await rated.control.advanceClock(FULL_BURST_MS); // a full burst of 5 again
    await rated.control.resetCounters();
    const parent = await drain(rated.apiKey, "/v2/ping", 3); // 3 of the 5-request burst
    const other = await drain(k.secret, "/v2/ping", 4); // 2 admitted, then the shared bucket is empty
    expect([parent, other]).toEqual([
      [200, 200, 200],
      [200, 200, 429, 429],
    ]);
    const { keys } = await rated.control.counters();
    expect(keys[k.id]).toEqual({ accountId: rated.accountId, admitted: 2, rateLimited: 2 });
    expect(Object.values(keys)).toContainEqual({ accountId: rated.accountId, admitted: 3, rateLimited: 0 });
    expect(Object.keys(keys)).toHaveLength(2);
  });

  test("Limits: buckets are per account (a sub account has its own) and refill with the emulator clock", async () => {
    await rated.control.advanceClock(FULL_BURST_MS);
    const sub = await makeSub(rated);
    const sk = await makeKey(rated, ["routes:read:all"], {}, sub.id);
    expect(await drain(rated.apiKey, "/v2/ping", 3)).toEqual([200, 200, 200]);
    expect((await drain(rated.apiKey, "/v2/ping", 3)).includes(429)).toBe(true);
    expect((await rated.req("GET", "/v2/ping", { key: sk.secret })).status).toBe(200);
    await rated.control.advanceClock(ONE_TOKEN_MS);
    expect((await rated.req("GET", "/v2/ping")).status).toBe(200);
  });

  describe("message limits", () => {
    const from = { email: "me@lim.example.com" };
    const addr = (i: number) => ({ email: `r${i}@dest.example.com` });
    beforeAll(async () => {
      await emu.control.advanceClock(60_000);
      await verifiedDomain(emu, "lim.example.com");
    });
    beforeEach(() => emu.control.advanceClock(60_000));
    const conv = (b: Record<string, unknown>) =>
      emu.req("POST", emu.acct("/messages/conversation"), {
        body: { from, to: [addr(0)], subject: "s", text_content: "t", ...b },
      });

    test("Limits: conversation recipients: each array 1–50, to + cc + bcc at most 50", async () => {
      expectError(await conv({ to: [] }), 400, /^to: /);
      expectError(await conv({ to: Array.from({ length: 51 }, (_, i) => addr(i)) }), 400, /to: /);
      expectError(
        await conv({
          to: Array.from({ length: 30 }, (_, i) => addr(i)),
          cc: Array.from({ length: 21 }, (_, i) => addr(100 + i)),
        }),
        400,
        /together hold 51/,
      );
      const ok = await conv({
        to: Array.from({ length: 30 }, (_, i) => addr(i)),
        cc: [addr(99)],
        bcc: Array.from({ length: 19 }, (_, i) => addr(200 + i)),
      });
      expect(ok.status).toBe(202);
      expect(ok.body.data).toHaveLength(50);
      expect(ok.body.data[0]).toEqual({
        object: "message",
        id: expect.stringMatching(/^<.+@.+>$/),
        recipient: { email: "r0@dest.example.com", name: "" },
        status: "queued",
        error: null,
      });
    });

    test("Limits: text_content or html_content is required; cc / reply-to header conflicts are 400", async () => {
      expectError(await conv({ text_content: undefined }), 400, /text_content or html_content is required/);
      expectError(
        await conv({ cc: [addr(1)], headers: { CC: "x@y.example.com" } }),
        400,
        /headers: must not hold a 'cc'/,
      );
      expectError(await conv({ reply_to: addr(1), headers: { "Reply-To": "x@y.example.com" } }), 400, /reply-to/);
      expect((await conv({ html_content: "<p>x</p>", text_content: undefined })).status).toBe(202);
    });

    test("Limits: retention metadata 1–30 and data 0–30 days", async () => {
      expectError(await conv({ retention: { metadata: 0 } }), 400, /retention.metadata/);
      expectError(await conv({ retention: { data: 31 } }), 400, /retention.data/);
      expect((await conv({ retention: { metadata: 30, data: 0 } })).status).toBe(202);
    });

    test("Limits: schedule.first_attempt in the future within 7 days; expires within 8 days (emulator clock)", async () => {
      const now = Date.parse((await emu.control.clock()).now);
      const iso = (ms: number) => new Date(now + ms).toISOString();
      const D = 86_400_000;
      expectError(await conv({ schedule: { first_attempt: iso(-60_000) } }), 400, /first_attempt/);
      expectError(await conv({ schedule: { first_attempt: iso(7 * D + 60_000) } }), 400, /first_attempt/);
      expectError(await conv({ schedule: { expires: iso(8 * D + 60_000) } }), 400, /expires/);
      expect((await conv({ schedule: { first_attempt: iso(6 * D), expires: iso(8 * D - 60_000) } })).status).toBe(202);
    });

    test("Limits: create message takes 1–100 recipients; the sender needs a domain of the account with valid DNS", async () => {
      const send = (b: Record<string, unknown>) =>
        emu.req("POST", emu.acct("/messages"), {
          body: { from, subject: "s", text_content: "t", recipients: [addr(0)], ...b },
        });
      expectError(
        await send({ recipients: Array.from({ length: 101 }, (_, i) => addr(i)) }),
        400,
        /recipients: at most 100/,
      );
      await emu.control.advanceClock(60_000);
      expect(
        (await send({ recipients: Array.from({ length: 100 }, (_, i) => ({ ...addr(i), substitutions: { n: i } })) }))
          .status,
      ).toBe(202);
      expectError(
        await send({ from: { email: "me@unknown.example.com" } }),
        400,
        /from.email: unknown.example.com is not a domain of this account with valid DNS/,
      );
      await emu.req("POST", emu.acct("/domains"), { body: { domain: "unverified.example.com" } });
      expectError(await send({ from: { email: "me@unverified.example.com" } }), 400, /valid DNS/);
      await emu.control.advanceClock(60_000);
      const k = await makeKey(emu, ["messages:send:other.example.com"]);
      const r = await emu.req("POST", emu.acct("/messages"), {
        key: k.secret,
        body: { from, subject: "s", text_content: "t", recipients: [addr(0)] },
      });
      expectError(r, 403, "messages:send:all or messages:send:lim.example.com");
    });
  });
});
