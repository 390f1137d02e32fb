// The busy-account bench's foreign traffic (bench/loadGenerator.ts) against a real emulator with a
// small limit (10 rps, burst 5): it offers its rate on schedule whatever the answers, counts 429s
// apart from successes, drains the burst on request, and stops when told or at its hard stop.
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { controlClient } from "../../emulator/control";
import { startLoad } from "../../bench/loadGenerator";

let emu: RunningEmulator;
beforeEach(async () => {
  emu = await startEmulator({ port: 0, control: true, rateLimit: { rps: 10, burst: 5 } });
});
afterEach(() => emu.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("offers its rate open loop: 40 rps for 1 s against a 10 rps limit sends ~40, 429s counted apart", async () => {
  const load = startLoad({ baseUrl: emu.baseUrl, apiKey: emu.apiKey, ratePerSecond: 40, maxSeconds: 30 });
  await sleep(1_000);
  const c = await load.stop();
  expect(c.sent).toBeGreaterThanOrEqual(30); // on schedule (timer lateness on a busy machine: a little less)
  expect(c.sent).toBeLessThanOrEqual(45);
  expect(c.ok + c.rateLimited + c.failed).toBe(c.sent);
  expect(c.failed).toBe(0);
  // the limit admits the burst of 5 plus ~10 per second; the rest were 429, not retried
  expect(c.ok).toBeGreaterThanOrEqual(5);
  expect(c.ok).toBeLessThanOrEqual(5 + 10 * c.seconds + 1);
  expect(c.rateLimited).toBe(c.sent - c.ok);
  const { keys } = await controlClient(emu).counters();
  expect(Object.values(keys)).toEqual([{ accountId: emu.accountId, admitted: c.ok, rateLimited: c.rateLimited }]);
});

test("drain spends the burst and stops at the first 429; stop sends nothing more", async () => {
  const load = startLoad({ baseUrl: emu.baseUrl, apiKey: emu.apiKey, ratePerSecond: 0, maxInFlight: 2 });
  const sent = await load.drain(100);
  const c = await load.stop();
  expect(c.rateLimited).toBeGreaterThanOrEqual(1);
  expect(sent).toBe(c.sent);
  expect(sent).toBeLessThanOrEqual(5 + 2 + 2); // the burst, a refill or two, one batch past it
  await sleep(200);
  expect(load.counts().sent).toBe(c.sent);
});

test("the hard stop: nothing is offered after maxSeconds", async () => {
  const load = startLoad({ baseUrl: emu.baseUrl, apiKey: emu.apiKey, ratePerSecond: 50, maxSeconds: 0.2 });
  await sleep(700);
  const c = await load.stop();
  expect(c.sent + c.skipped).toBeLessThanOrEqual(11); // 50 rps × 0.2 s, and not the 35 of 0.7 s
  expect(c.sent).toBeGreaterThanOrEqual(5);
});
