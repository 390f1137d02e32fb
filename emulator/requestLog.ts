// The order in which requests reached the service, for tests that must prove an order (a key
// rotation creates the new key before deleting the old one; a DKIM change deletes the domain first).
// Counters say how many, not in which order. Bounded: the oldest entries give way, and `dropped`
// says how many did, so a test never mistakes a truncated log for a complete one. Entries hold the
// method, the path (ids and domain names only, never query values, headers or bodies: no secrets)
// and the status sent.
export interface RequestLogEntry {
  /** Arrival order, from 1; never reused, not even after `clear()`. */
  seq: number;
  method: string;
  /** Path without the query string. */
  path: string;
  /** The path template it matched, or null (404/405). */
  template: string | null;
  /** Status sent, or null while unanswered or when the connection was dropped without an answer. */
  status: number | null;
  /** Service clock (ISO) at arrival. */
  at: string;
}

export interface RequestLogSnapshot {
  /** Oldest first. */
  requests: RequestLogEntry[];
  /** Entries discarded because the log was full (since the last clear). */
  dropped: number;
}

export const REQUEST_LOG_CAPACITY = 10_000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private nextSeq = 1;
  private dropped = 0;

  constructor(private readonly capacity = REQUEST_LOG_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("capacity must be a positive integer");
  }

  /** Records an arriving request; the caller fills in `template` and `status` as they become known. */
  begin(method: string, path: string, at: string): RequestLogEntry {
    const entry: RequestLogEntry = { seq: this.nextSeq++, method, path, template: null, status: null, at };
    this.entries.push(entry);
    // Trimmed in batches (a quarter of the capacity at a time), so a busy emulator does not move
    // the whole log on every request.
    if (this.entries.length >= this.capacity + Math.ceil(this.capacity / 4)) this.trim();
    return entry;
  }

  snapshot(): RequestLogSnapshot {
    this.trim();
    return { requests: this.entries.map((e) => ({ ...e })), dropped: this.dropped };
  }

  clear(): void {
    this.entries = [];
    this.dropped = 0;
  }

  private trim(): void {
    const excess = this.entries.length - this.capacity;
    if (excess <= 0) return;
    this.entries = this.entries.slice(excess);
    this.dropped += excess;
  }
}
