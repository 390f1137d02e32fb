// The account's pace as a function of time: flat at the ceiling until a 429 cuts it, then flat at the
// cut rate until the pause (Retry-After) ends, then doubling every `doublingMs` back to the ceiling.
//
// Why time-based, exponential recovery: the limit is per account and shared with the application
// that sends the tenants' mail, so a 429 says "the account is full right now", not "your share is
// smaller for good". Halving on each storm keeps probing polite while the account stays full;
// doubling from the end of the pause brings even the 1 rps floor back to 97 rps in ~1.7 s
// (log2(97) × 250 ms) once 429s stop. The old rule (+5 % of the limit per success) climbed only as
// answers came back (with little traffic it stayed low), and slots booked at the low rate kept their
// late times when the rate rose.
//
// Under sustained foreign load this shape oscillates — back near 97 rps ~250 ms after each pause, then
// a 429 and a 1 s pause about every 1.3 s at 90 % — yet it still takes what the account has left: the
// account's bucket keeps what accrues during a pause, and the climb spends it (the client alone took
// 95–100 % of what 50 % or 90 % foreign load left; bench/busyAccount.ts). The cost is 429s, ~1.5/s of
// its own and, at 90 %, as many refused to the other application. A variant aimed at those 429s (it
// remembered the admitted rate of the last 2 s as the headroom, climbed fast to 90 % of it, probed
// above it doubling every 1 s, forgot it after 1.5 s quiet) left the throughput as it was, cut the
// client's 429s at 90 % from ~32 to 20 in a single run but not the other application's, and slowed
// storm recovery from 2.3 s to 3.8 s: not kept (2026-11-23).
//
// Why a closed form: waiters book slots in advance, so the bucket needs "how many tokens accrue
// between a and b" and "when will n tokens have accrued" under a rising rate. Integrating the curve
// exactly means a slot booked while the pace is low is not scheduled as if it stayed low.
// Units: times in ms, rates in requests per second, tokens in requests.

const LN2 = Math.LN2;

/** Where the curve stands, as plain data (so the account's pace can live in a file shared by processes). */
export interface PaceCurveState {
  /** Rate right after the latest cut. */
  base: number;
  /** When the climb from `base` starts; -Infinity before any cut. */
  start: number;
}

export class PaceCurve {
  /** Rate right after the latest cut (the ceiling before any cut). */
  private base: number;
  /** When the climb from `base` starts (the end of the latest pause); -Infinity before any cut. */
  private start = -Infinity;

  constructor(
    readonly ceiling: number,
    readonly doublingMs: number,
    from?: PaceCurveState,
  ) {
    if (!(ceiling > 0) || !(doublingMs > 0)) throw new RangeError("pace curve needs ceiling > 0 and doublingMs > 0");
    this.base = ceiling;
    // A state written by a process with a higher ceiling is held to this one's.
    if (from && from.base > 0) {
      this.base = Math.min(ceiling, from.base);
      this.start = from.start;
    }
  }

  get state(): PaceCurveState {
    return { base: this.base, start: this.start };
  }

  /** From `from` on the rate climbs from `rate` (held flat until then). */
  cut(rate: number, from: number): void {
    this.base = Math.min(this.ceiling, Math.max(rate, Number.MIN_VALUE));
    this.start = from;
  }

  /** The climb waits for a pause that was extended after the cut. */
  holdUntil(from: number): void {
    if (from > this.start && this.base < this.ceiling) this.start = from;
  }

  /** Requests per second allowed at `t`. */
  rateAt(t: number): number {
    if (t <= this.start) return this.base;
    return Math.min(this.ceiling, this.base * 2 ** ((t - this.start) / this.doublingMs));
  }

  /** When the climb reaches the ceiling (≤ start when there is nothing to climb). */
  get fullAt(): number {
    return this.base >= this.ceiling ? this.start : this.start + this.doublingMs * Math.log2(this.ceiling / this.base);
  }

  /** Tokens that accrue between `a` and `b` (the integral of the rate). */
  accrued(a: number, b: number): number {
    let t = a;
    let total = 0; // requests × ms / s
    if (t >= b) return 0;
    if (t < this.start) {
      const e = Math.min(b, this.start);
      total += this.base * (e - t);
      t = e;
    }
    const full = this.fullAt;
    if (t < b && t < full) {
      const e = Math.min(b, full);
      // ∫ r(t)·2^((s−t)/D) ds over [t, e] = D/ln2 · r(t) · (2^((e−t)/D) − 1); expm1 keeps it exact
      // when D is long and the interval short
      total += (this.doublingMs / LN2) * this.rateAt(t) * Math.expm1(((e - t) * LN2) / this.doublingMs);
      t = e;
    }
    if (t < b) total += this.ceiling * (b - t);
    return total / 1000;
  }

  /** The time at which `tokens` more have accrued, counting from `from`. */
  timeToAccrue(from: number, tokens: number): number {
    let need = Math.max(0, tokens) * 1000;
    let t = from;
    if (need === 0) return t;
    if (t < this.start) {
      const cap = this.base * (this.start - t);
      if (need <= cap) return t + need / this.base;
      need -= cap;
      t = this.start;
    }
    const full = this.fullAt;
    if (t < full) {
      const cap = (this.doublingMs / LN2) * (this.ceiling - this.rateAt(t));
      if (need <= cap) {
        // the inverse of `accrued`: need = D/ln2 · r(t) · (2^(Δ/D) − 1)
        return t + (this.doublingMs / LN2) * Math.log1p((need * LN2) / (this.doublingMs * this.rateAt(t)));
      }
      need -= cap;
      t = full;
    }
    return t + need / this.ceiling;
  }
}
