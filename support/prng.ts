// A seeded pseudo-random sequence for fixtures and benchmarks: the same seed gives the same numbers,
// so that two runs (or a report and its snapshot) are comparable.

/** mulberry32: a tiny deterministic PRNG; each call gives the next number in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
