import { backoffDelay } from "../../../provider/client/retry";

const opts = { baseDelayMs: 250, maxDelayMs: 10_000 };

describe("backoffDelay (exponential, equal jitter)", () => {
  test("stays within [d/2, d] for d = min(max, base * 2^(n-1))", () => {
    for (let n = 1; n <= 40; n++) {
      const d = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (n - 1));
      expect(backoffDelay(n, opts, () => 0)).toBe(Math.round(d / 2));
      expect(backoffDelay(n, opts, () => 0.999999)).toBeLessThanOrEqual(d);
      expect(backoffDelay(n, opts, () => 0.999999)).toBeGreaterThanOrEqual(Math.round(d / 2));
    }
  });
  test("grows then caps", () => {
    const mid = (n: number) => backoffDelay(n, opts, () => 0.5);
    expect([1, 2, 3, 4, 5, 6, 7].map(mid)).toEqual([188, 375, 750, 1500, 3000, 6000, 7500]);
    expect(mid(1000)).toBe(7500); // no overflow for absurd attempt numbers
  });
  test("random outside [0,1) is clamped", () => {
    expect(backoffDelay(1, opts, () => 5)).toBe(250);
    expect(backoffDelay(1, opts, () => -5)).toBe(125);
  });
  test("real randomness spreads retries", () => {
    const samples = new Set(Array.from({ length: 50 }, () => backoffDelay(5, opts)));
    expect(samples.size).toBeGreaterThan(10);
  });
});
