// Per-account token buckets (docs/contract/limits.md#rate-limits: per account, shared by all its keys): 100 rps, burst
// 200 by default; statistics endpoints have their own bucket (1 rps, burst 1). Refill follows the
// emulator clock, so advancing it refills the buckets.
export interface RateSpec {
  rps: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  constructor(private readonly spec: RateSpec) {
    if (!(spec.rps > 0) || !(spec.burst >= 1)) throw new RangeError("rate limit needs rps > 0 and burst >= 1");
  }
  /** 0 when admitted, else whole seconds until a token is available (>= 1). */
  take(account: string, now: number): number {
    let b = this.buckets.get(account);
    if (!b) {
      if (this.buckets.size > 100_000) this.buckets.clear();
      b = { tokens: this.spec.burst, at: now };
      this.buckets.set(account, b);
    }
    const elapsed = Math.max(0, now - b.at) / 1000;
    b.tokens = Math.min(this.spec.burst, b.tokens + elapsed * this.spec.rps);
    b.at = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.spec.rps));
  }
}
