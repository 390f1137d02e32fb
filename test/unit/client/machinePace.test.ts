// The account's pace shared through a file (provider/client/pace/machinePace.ts): two buckets on one file
// stand for two processes (each FilePaceStore reads and rewrites the file under the lock, exactly as
// another process would). The real two-process proof against the emulator is in
// test/conformance/client/machinePace.emulator.test.ts.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FakeClock } from "../../../provider/client/clock";
import {
  FilePaceStore,
  STALE_LOCK_MS,
  machinePaceStore,
  TokenBucket,
  resetSharedBucketsForTests,
  sharedBucket,
} from "../../../provider/client/pace";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-pace-test-"));
  resetSharedBucketsForTests();
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  resetSharedBucketsForTests();
});

const SLOW = { ratePerSecond: 10, burst: 2 };

/** Two buckets on one file; with `clock`, both read that clock instead of the system's. */
function twoProcesses(clock?: FakeClock): [TokenBucket, TokenBucket] {
  const file = path.join(dir, "account.json");
  return [new TokenBucket(SLOW, clock, new FilePaceStore(file)), new TokenBucket(SLOW, clock, new FilePaceStore(file))];
}

describe("one pace per account per machine", () => {
  test("two processes take from one bucket: the second books behind the first", () => {
    // One fake clock for both "processes": the slots are exact, however loaded the machine is.
    const [a, b] = twoProcesses(new FakeClock());
    expect(a.reserve().waitMs).toBe(0);
    expect(a.reserve().waitMs).toBe(0); // the burst of 2 is spent, by a alone
    // 10 rps: the next slots are 100 ms and 200 ms away, b's first
    expect(b.reserve().waitMs).toBe(100);
    expect(a.reserve().waitMs).toBe(200);
  });

  test("with a process-local pace each would have had its own burst (what the file changes)", () => {
    const a = new TokenBucket(SLOW);
    const b = new TokenBucket(SLOW);
    a.reserve();
    a.reserve();
    expect(b.reserve().waitMs).toBe(0);
  });

  test("a 429 seen by one process pauses and halves the pace of the other", async () => {
    const [a, b] = twoProcesses();
    a.penalize(2000);
    const seen = b.snapshot();
    expect(seen.sharedBy).toBe("machine");
    expect(seen.pausedForMs).toBeGreaterThan(1900);
    expect(seen.ratePerSecond).toBe(5);
    expect(b.reserve().waitMs).toBeGreaterThan(1900);
  });

  test("a waiter in one process re-books when another process is penalised while it sleeps", async () => {
    const [a, b] = twoProcesses();
    a.reserve();
    a.reserve();
    const acquired = b.acquire(); // books ~100 ms ahead and sleeps
    await new Promise((r) => setTimeout(r, 20));
    a.penalize(300);
    const t0 = Date.now();
    await acquired;
    // it did not go at its old slot (~80 ms from the penalty) but behind the 300 ms pause
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
  });

  test("a lock left by a dead process is broken; a live holder's lock is waited for", () => {
    const file = path.join(dir, "account.json");
    const lock = `${file}.lock`;
    const bucket = new TokenBucket(SLOW, undefined, new FilePaceStore(file));
    fs.writeFileSync(lock, "");
    const old = (Date.now() - 10 * STALE_LOCK_MS) / 1000;
    fs.utimesSync(lock, old, old);
    const t0 = Date.now();
    expect(bucket.reserve().waitMs).toBe(0);
    // Broken at once rather than waited out (which takes STALE_LOCK_MS): the whole margin, since a
    // loaded CI machine can stall a few synchronous file operations for a few hundred ms.
    expect(Date.now() - t0).toBeLessThan(STALE_LOCK_MS);
    expect(fs.existsSync(lock)).toBe(false); // released after use

    fs.writeFileSync(lock, ""); // held right now by someone who never releases it
    // Staleness counts from the lock's mtime, which the file system may stamp a few ms before
    // Date.now() reads after the write: measured from it, as the store judges it.
    const heldSince = fs.statSync(lock).mtimeMs;
    bucket.reserve();
    expect(Date.now() - heldSince).toBeGreaterThanOrEqual(STALE_LOCK_MS); // waited until it was stale
    expect(fs.existsSync(lock)).toBe(false);
  });

  test("an unreadable state file is a fresh, full bucket", () => {
    const file = path.join(dir, "account.json");
    fs.writeFileSync(file, "{ not json");
    const bucket = new TokenBucket(SLOW, undefined, new FilePaceStore(file));
    expect(bucket.reserve().waitMs).toBe(0);
    expect(bucket.reserve().waitMs).toBe(0);
    const rewritten = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(rewritten).toMatchObject({ epoch: 0, cuts: 0 }); // and the burst spent (plus what accrued since)
    expect(rewritten.tokens).toBeLessThan(0.5);
  });

  test("a record written in place over a longer one still reads back (another writer's tokens kept)", () => {
    const file = path.join(dir, "account.json");
    const clock = new FakeClock(1_000_000);
    // A longer record than the ones written next (spaced out: as long as a state with bigger numbers).
    const full = { tokens: 2, last: clock.now(), pausedUntil: 0, epoch: 0, cuts: 0, curve: { base: 10, start: null } };
    fs.writeFileSync(file, JSON.stringify(full, null, 8));
    const [a, b] = [new FilePaceStore(file), new FilePaceStore(file)].map(
      (store) => new TokenBucket(SLOW, clock, store),
    );
    expect(a!.reserve().waitMs).toBe(0);
    expect(b!.reserve().waitMs).toBe(0);
    expect(a!.reserve().waitMs).toBeGreaterThan(0); // the burst of 2 is spent between the two
    expect(JSON.parse(fs.readFileSync(file, "utf8")).tokens).toBe(-1);
  });

  test("the state survives a cut: -Infinity (no cut yet) and a cut curve both round-trip", () => {
    const [a, b] = twoProcesses();
    a.reserve();
    expect(JSON.parse(fs.readFileSync(path.join(dir, "account.json"), "utf8")).curve.start).toBeNull();
    expect(b.currentRate).toBe(10);
    a.penalize(0);
    expect(b.currentRate).toBeGreaterThanOrEqual(5);
    expect(b.currentRate).toBeLessThan(10);
  });
});

describe("which pace a client gets", () => {
  test("the system clock with a usable directory: the machine's; the file is named by a hash", () => {
    const b = sharedBucket("http://127.0.0.1:1|acct-1", SLOW, undefined, dir);
    expect(b.snapshot().sharedBy).toBe("machine");
    b.reserve();
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}\.json$/);
  });

  test("a fake clock, no directory, or an unusable one: this process's own", () => {
    expect(sharedBucket("k1", SLOW, new FakeClock(), dir).snapshot().sharedBy).toBe("process");
    expect(sharedBucket("k2", SLOW).snapshot().sharedBy).toBe("process");
    const notADir = path.join(dir, "file");
    fs.writeFileSync(notADir, "");
    expect(machinePaceStore("k3", notADir)).toBeUndefined();
    expect(sharedBucket("k3", SLOW, undefined, notADir).snapshot().sharedBy).toBe("process");
  });

  test("files idle for an hour are swept when a process first uses the directory", () => {
    const sweepDir = path.join(dir, "sweep");
    fs.mkdirSync(sweepDir);
    const stale = path.join(sweepDir, "old.json");
    const recent = path.join(sweepDir, "new.json");
    fs.writeFileSync(stale, "{}");
    fs.writeFileSync(recent, "{}");
    const hourAgo = (Date.now() - 2 * 3_600_000) / 1000;
    fs.utimesSync(stale, hourAgo, hourAgo);
    machinePaceStore("k", sweepDir);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(recent)).toBe(true);
  });
});
