// The emulator's clock: real time plus an offset tests can advance. Every lifetime (idempotency
// records and leases, secret replay windows, the check-dns cache, rate-limit refill, schedules,
// billing periods, timestamps) reads this clock, so tests advance it instead of sleeping.
export class Clock {
  private offsetMs: number;
  constructor(
    offsetMs = 0,
    private readonly onChange?: (offsetMs: number) => void,
  ) {
    this.offsetMs = offsetMs;
  }
  now(): number {
    return Date.now() + this.offsetMs;
  }
  iso(ms: number = this.now()): string {
    return new Date(ms).toISOString();
  }
  get offset(): number {
    return this.offsetMs;
  }
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0 || ms > 10 * 365 * 86_400_000) {
      throw new RangeError("advance takes a non-negative number of milliseconds (at most ten years)");
    }
    this.offsetMs += Math.floor(ms);
    this.onChange?.(this.offsetMs);
    return this.now();
  }
}
