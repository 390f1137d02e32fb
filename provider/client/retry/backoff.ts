// Exponential backoff with "equal jitter": the n-th wait is drawn from [d/2, d] where
// d = min(maxDelay, baseDelay * 2^(n-1)). Half is guaranteed (so a storm of clients still spreads out
// over time), half is random (so they do not retry in lockstep).

export interface BackoffOptions {
  /** First nominal delay. */
  baseDelayMs: number;
  /** Upper bound of any single computed delay (Retry-After may exceed it: it is authoritative). */
  maxDelayMs: number;
}

/** `retryNumber` counts from 1 (the wait before the 2nd attempt). `random` returns [0, 1). */
export function backoffDelay(retryNumber: number, opts: BackoffOptions, random: () => number = Math.random): number {
  const n = Math.max(1, Math.floor(retryNumber));
  // Cap the exponent so 2^n never overflows into Infinity for absurd attempt counts.
  const nominal = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** Math.min(n - 1, 30));
  const half = nominal / 2;
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(half + r * half);
}
