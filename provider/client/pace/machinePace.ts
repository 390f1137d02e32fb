// One pace per account per machine: the token bucket's state in a small file under the OS temp dir,
// read and rewritten under a lock file by every process that talks to the account.
//
// Why: the service's limit (100 rps, burst 200) is per account, and a fleet runs one `pulumi up` per
// shard — each with its own provider process, each pacing itself at the full 97 rps. A per-process
// pace would let N shards send N × 97 rps and spend the run in 429 pauses. Splitting the rate up
// front (an env var with 1/N each) was the other candidate; it wastes the shares of shards that are
// busy in the engine (checkpoint writes, not requests) or already done, and it needs a supervisor to
// rebalance. A shared bucket is work-conserving — one process alone gets the full rate, two busy
// ones get about half each — works for any processes (two `pulumi up`s by hand too), and costs a few
// file operations per request (tens of microseconds: a lock file made and removed, one read and one
// write in place; requests are ≥ 10 ms apart at the limit).
//
// The lock is a file created with O_EXCL and held only for a synchronous read-modify-write (never
// across an await), so holders keep it for microseconds. A lock older than STALE_LOCK_MS belongs to
// a process killed inside that window: it is broken. Two processes breaking the same stale lock at
// once could both proceed; the cost is one lost update of the bucket (a few requests early, a 429
// waited out), never a hang. Nothing here is a secret: the file holds numbers, its name is a hash of
// the base URL and account id.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { MemoryPaceStore, type PaceState, type PaceStore } from "./paceStore";

/** A lock this old was left by a process that died holding it (holders keep it for microseconds). */
export const STALE_LOCK_MS = 1000;
/** Longest wait for the lock before going ahead without it: a broken lock never blocks a run. */
const MAX_LOCK_WAIT_MS = 3000;
/** Files of accounts idle this long are swept (an idle bucket is full again after ~2 s anyway). */
const SWEEP_AFTER_MS = 3_600_000;
/** A record is ~200 bytes; more than this is not one (read no further). */
const MAX_RECORD_BYTES = 64 * 1024;
/** Bound on the entries one sweep looks at. */
const MAX_SWEEP_ENTRIES = 10_000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
/** Blocks for `ms` (the lock is taken inside synchronous code; waits are 1 ms and rare). */
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** The default directory: per user, so processes of different users never share or fight over files. */
export function defaultPaceDir(): string {
  const uid = typeof process.getuid === "function" ? String(process.getuid()) : os.userInfo().username;
  return path.join(os.tmpdir(), `txmail-pace-${uid}`);
}

const swept = new Set<string>();

/**
 * The machine-wide store of the account named by `key` in `dir`, or undefined when the directory
 * cannot be used safely (not creatable, or owned by another user): the caller then paces alone.
 */
export function machinePaceStore(key: string, dir: string): PaceStore | undefined {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.statSync(dir);
    if (typeof process.getuid === "function" && st.uid !== process.getuid()) return undefined;
  } catch {
    return undefined;
  }
  if (!swept.has(dir)) {
    swept.add(dir);
    sweep(dir);
  }
  const name = createHash("sha256").update(key).digest("hex").slice(0, 32);
  return new FilePaceStore(path.join(dir, `${name}.json`));
}

function sweep(dir: string): void {
  try {
    const now = Date.now();
    for (const entry of fs.readdirSync(dir).slice(0, MAX_SWEEP_ENTRIES)) {
      const file = path.join(dir, entry);
      try {
        if (now - fs.statSync(file).mtimeMs > SWEEP_AFTER_MS) fs.unlinkSync(file);
      } catch {
        // another process swept it first
      }
    }
  } catch {
    // an unreadable directory only means nothing is swept
  }
}

/** JSON has no -Infinity (a curve before any cut starts at -Infinity): it is written as null. */
interface PaceFile extends Omit<PaceState, "curve"> {
  curve: { base: number; start: number | null };
}

export class FilePaceStore implements PaceStore {
  readonly scope = "machine" as const;
  private readonly lockPath: string;
  /** Set when the file stops working (disk full, permissions changed): this process then paces alone. */
  private fallback: MemoryPaceStore | undefined;

  constructor(readonly file: string) {
    this.lockPath = `${file}.lock`;
  }

  update<T>(fresh: () => PaceState, change: (s: PaceState) => T): T {
    if (this.fallback) return this.fallback.update(fresh, change);
    let result: T | undefined;
    const done = this.underLock((fd) => {
      const state = this.load(fd) ?? fresh();
      result = change(state);
      try {
        this.save(fd, state);
      } catch {
        this.fallback = new MemoryPaceStore(state);
      }
    });
    return done ? (result as T) : this.paceAlone(fresh(), change);
  }

  read(fresh: () => PaceState): PaceState {
    if (this.fallback) return this.fallback.read(fresh);
    let state: PaceState | undefined;
    this.underLock((fd) => {
      state = this.load(fd);
    });
    return state ?? fresh();
  }

  /**
   * Runs `use` on the state file (created when missing) while holding the lock: the record is
   * rewritten in place, so a reader needs the lock as much as a writer. False when the file or the
   * lock cannot be used at all (this process then paces alone).
   */
  private underLock(use: (fd: number) => void): boolean {
    let locked: boolean;
    try {
      locked = this.lock();
    } catch {
      return false;
    }
    try {
      let fd: number;
      try {
        fd = fs.openSync(this.file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
      } catch {
        return false;
      }
      try {
        use(fd);
      } finally {
        fs.closeSync(fd);
      }
      return true;
    } finally {
      if (locked) this.unlock();
    }
  }

  private paceAlone<T>(state: PaceState, change: (s: PaceState) => T): T {
    this.fallback = new MemoryPaceStore(state);
    return this.fallback.update(() => state, change);
  }

  /** True when this process holds the lock; false when it gave up waiting (and goes ahead anyway). */
  private lock(): boolean {
    const deadline = Date.now() + MAX_LOCK_WAIT_MS;
    for (;;) {
      try {
        fs.closeSync(fs.openSync(this.lockPath, "wx", 0o600));
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      if (this.breakStaleLock()) continue;
      if (Date.now() >= deadline) return false;
      sleepSync(1);
    }
  }

  /** Removes the lock if its holder died holding it; true when the lock is gone (try again at once). */
  private breakStaleLock(): boolean {
    try {
      if (Date.now() - fs.statSync(this.lockPath).mtimeMs <= STALE_LOCK_MS) return false;
      // rename first: of several processes breaking it, one wins the rename and removes it
      const aside = `${this.lockPath}.stale-${process.pid}`;
      fs.renameSync(this.lockPath, aside);
      fs.unlinkSync(aside);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === "ENOENT";
    }
  }

  private unlock(): void {
    try {
      fs.unlinkSync(this.lockPath);
    } catch {
      // broken as stale by another process: nothing left to release
    }
  }

  /** The state in the file; undefined when there is none or it is unreadable (a fresh bucket then). */
  private load(fd: number): PaceState | undefined {
    let raw: PaceFile;
    try {
      const size = Math.min(fs.fstatSync(fd).size, MAX_RECORD_BYTES);
      const bytes = Buffer.alloc(size);
      const read = fs.readSync(fd, bytes, 0, size, 0);
      raw = JSON.parse(bytes.toString("utf8", 0, read)) as PaceFile;
    } catch {
      return undefined;
    }
    const numbers = [raw?.tokens, raw?.last, raw?.pausedUntil, raw?.epoch, raw?.cuts, raw?.curve?.base];
    if (!numbers.every((n) => typeof n === "number" && Number.isFinite(n))) return undefined;
    const start = raw.curve.start === null ? -Infinity : raw.curve.start;
    if (typeof start !== "number" || Number.isNaN(start)) return undefined;
    return { ...raw, curve: { base: raw.curve.base, start } };
  }

  /**
   * Rewritten in place, padded with spaces over a longer earlier record (JSON ignores them). Not a
   * new file renamed over the old one: on this project's machines a rename cost ~1 ms per request,
   * 0.45 s of a 50-tenant up's provider (bench/RESULTS.md#where-the-time-goes), against microseconds
   * for a write. Readers hold the lock too, so none sees half a record; a process killed while
   * writing leaves an unreadable one, which the next reader takes as a fresh bucket (one lost
   * update, as with a broken lock).
   */
  private save(fd: number, s: PaceState): void {
    const out: PaceFile = {
      ...s,
      curve: { base: s.curve.base, start: Number.isFinite(s.curve.start) ? s.curve.start : null },
    };
    const text = JSON.stringify(out);
    fs.writeSync(fd, text.padEnd(fs.fstatSync(fd).size, " "), 0, "utf8");
  }
}
