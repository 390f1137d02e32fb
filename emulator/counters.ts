// Per-endpoint request counters (method + path template), split into reads (GET) and writes; and,
// per API key, what the account's rate limit did with its requests — the limit is per account and
// shared by every key, so a bench can tell one caller's share (and its 429s) from another's.
export interface CounterSnapshot {
  reads: number;
  writes: number;
  total: number;
  endpoints: Record<string, number>;
  /** Per API key id: requests the rate limit admitted and answered 429 (statistics included). */
  keys: Record<string, KeyRateCounter>;
}

export interface KeyRateCounter {
  accountId: string;
  admitted: number;
  rateLimited: number;
}

export class Counters {
  private endpoints = new Map<string, number>();
  private keys = new Map<string, KeyRateCounter>();
  private reads = 0;
  private writes = 0;

  count(method: string, template: string): void {
    const k = `${method} ${template}`;
    this.endpoints.set(k, (this.endpoints.get(k) ?? 0) + 1);
    if (method === "GET" || method === "HEAD") this.reads++;
    else this.writes++;
  }

  /** One authenticated request met the rate limit: admitted, or answered 429. */
  rateLimit(keyId: string, accountId: string, admitted: boolean): void {
    let c = this.keys.get(keyId);
    if (!c) {
      c = { accountId, admitted: 0, rateLimited: 0 };
      this.keys.set(keyId, c);
    }
    if (admitted) c.admitted++;
    else c.rateLimited++;
  }

  snapshot(): CounterSnapshot {
    return {
      reads: this.reads,
      writes: this.writes,
      total: this.reads + this.writes,
      endpoints: Object.fromEntries([...this.endpoints].sort(([a], [b]) => a.localeCompare(b))),
      keys: Object.fromEntries([...this.keys].map(([id, c]) => [id, { ...c }])),
    };
  }

  reset(): void {
    this.endpoints = new Map();
    this.keys = new Map();
    this.reads = 0;
    this.writes = 0;
  }
}
