import { PaceCurve } from "../../../provider/client/pace";

/** Midpoint-rule integral of the curve's rate, in tokens (rate in requests/s, time in ms). */
function numericAccrued(c: PaceCurve, a: number, b: number, steps = 20_000): number {
  const h = (b - a) / steps;
  let sum = 0;
  for (let i = 0; i < steps; i++) sum += c.rateAt(a + (i + 0.5) * h) * h;
  return sum / 1000;
}

/** A deterministic pseudo-random sequence (the checks must not depend on luck). */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe("PaceCurve", () => {
  test("before any cut: flat at the ceiling", () => {
    const c = new PaceCurve(97, 250);
    expect(c.rateAt(0)).toBe(97);
    expect(c.rateAt(1e12)).toBe(97);
    expect(c.accrued(1000, 2000)).toBeCloseTo(97, 9);
    expect(c.timeToAccrue(1000, 97)).toBeCloseTo(2000, 9);
  });

  test("after a cut: flat until the start, doubling every doublingMs, capped at the ceiling", () => {
    const c = new PaceCurve(100, 250);
    c.cut(10, 5000);
    expect(c.rateAt(4000)).toBe(10);
    expect(c.rateAt(5000)).toBe(10);
    expect(c.rateAt(5250)).toBeCloseTo(20, 9);
    expect(c.rateAt(5500)).toBeCloseTo(40, 9);
    expect(c.rateAt(5000 + 250 * Math.log2(10))).toBeCloseTo(100, 9);
    expect(c.rateAt(9000)).toBe(100);
  });

  test("holdUntil moves the start of the climb (a pause extended after the cut)", () => {
    const c = new PaceCurve(100, 250);
    c.cut(25, 1000);
    c.holdUntil(3000);
    expect(c.rateAt(2500)).toBe(25);
    expect(c.rateAt(3250)).toBeCloseTo(50, 9);
    c.holdUntil(2000); // never backwards
    expect(c.rateAt(3250)).toBeCloseTo(50, 9);
  });

  test("accrued is the integral of the rate across all three segments", () => {
    const c = new PaceCurve(97, 250);
    c.cut(1, 10_000);
    const rnd = lcg(7);
    for (let i = 0; i < 40; i++) {
      const a = 9_000 + rnd() * 4_000;
      const b = a + rnd() * 3_000;
      expect(c.accrued(a, b)).toBeCloseTo(numericAccrued(c, a, b), 3);
    }
    expect(c.accrued(12_000, 11_000)).toBe(0);
  });

  test("timeToAccrue inverts accrued, from any point of the curve", () => {
    const c = new PaceCurve(97, 250);
    c.cut(1.5, 10_000);
    const rnd = lcg(11);
    for (let i = 0; i < 200; i++) {
      const from = 9_000 + rnd() * 4_000;
      const tokens = rnd() * 300;
      const t = c.timeToAccrue(from, tokens);
      expect(t).toBeGreaterThanOrEqual(from);
      expect(c.accrued(from, t)).toBeCloseTo(tokens, 6);
    }
    expect(c.timeToAccrue(10_500, 0)).toBe(10_500);
  });

  test("stays exact when the doubling time is very long (no cancellation)", () => {
    const c = new PaceCurve(100, 1e15);
    c.cut(50, 0);
    expect(c.timeToAccrue(0, 1)).toBeCloseTo(20, 6);
    expect(c.accrued(0, 20)).toBeCloseTo(1, 6);
  });

  test("rejects nonsense configuration", () => {
    expect(() => new PaceCurve(0, 250)).toThrow(RangeError);
    expect(() => new PaceCurve(97, 0)).toThrow(RangeError);
  });
});
