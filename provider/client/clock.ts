// Time, injectable. Retries, backoff and the rate limiter read time only through a Clock so unit tests
// can run minutes of back-off in microseconds and assert exact delays.

export interface Clock {
  /** Milliseconds since the epoch (only differences matter, except for HTTP-date Retry-After). */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      if (ms <= 0) return resolve();
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/**
 * A manual clock for tests: `sleep` advances time instantly and records the requested delay. Concurrent
 * sleepers each advance the clock by their own delay (time only moves forward), which is enough for the
 * sequential retry loop and the rate limiter's arithmetic.
 */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(private t = 1_700_000_000_000) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += Math.max(0, ms);
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.advance(ms);
  }
}
