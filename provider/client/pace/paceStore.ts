// Where an account's pace (the token bucket's state) lives: in this process's memory, or in a file
// every process on the machine shares (machinePace.ts). The bucket's arithmetic is the same either
// way; only the store knows whether other processes take from the same tokens.
import type { PaceCurveState } from "./paceCurve";

/** The token bucket's whole state, as plain numbers. */
export interface PaceState {
  /** Available tokens; negative = slots already promised to waiters (each waits its turn). */
  tokens: number;
  /** Time (ms since the epoch) up to which tokens have been accounted for. */
  last: number;
  /** No request leaves (and no token accrues) before this time (set by 429s). */
  pausedUntil: number;
  /** Incremented by every penalty: a waiter whose booking predates the current epoch re-books. */
  epoch: number;
  /** Incremented by every cut of the pace: a 429 to a request sent before the latest cut is not news. */
  cuts: number;
  /** The pace curve after the latest cut. */
  curve: PaceCurveState;
}

export interface PaceStore {
  /**
   * Runs `change` on the current state (or on `fresh()` when there is none yet) and keeps what it
   * leaves, atomically with respect to every other user of the store. `change` is synchronous, so no
   * lock is ever held across an await.
   */
  update<T>(fresh: () => PaceState, change: (s: PaceState) => T): T;
  /** The current state, for reading only (a copy may be stale by the time it is used). */
  read(fresh: () => PaceState): PaceState;
  /** "process" or "machine": what shares this pace (for logs and benchmarks). */
  readonly scope: "process" | "machine";
}

/** The pace of one process: the state is an object in memory. */
export class MemoryPaceStore implements PaceStore {
  readonly scope = "process" as const;

  constructor(private state?: PaceState) {}

  update<T>(fresh: () => PaceState, change: (s: PaceState) => T): T {
    this.state ??= fresh();
    return change(this.state);
  }

  read(fresh: () => PaceState): PaceState {
    this.state ??= fresh();
    return { ...this.state, curve: { ...this.state.curve } };
  }
}
