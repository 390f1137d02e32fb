// Per-endpoint request counters (method + route template), split into reads (GET) and writes.
export interface CounterSnapshot {
  reads: number;
  writes: number;
  total: number;
  endpoints: Record<string, number>;
}

export class Counters {
  private endpoints = new Map<string, number>();
  private reads = 0;
  private writes = 0;

  count(method: string, template: string): void {
    const k = `${method} ${template}`;
    this.endpoints.set(k, (this.endpoints.get(k) ?? 0) + 1);
    if (method === "GET" || method === "HEAD") this.reads++;
    else this.writes++;
  }

  snapshot(): CounterSnapshot {
    return {
      reads: this.reads,
      writes: this.writes,
      total: this.reads + this.writes,
      endpoints: Object.fromEntries([...this.endpoints].sort(([a], [b]) => a.localeCompare(b))),
    };
  }

  reset(): void {
    this.endpoints = new Map();
    this.reads = 0;
    this.writes = 0;
  }
}
