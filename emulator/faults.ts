// Injected faults, matched by method and path pattern, each firing `count` times, in one of these
// modes (the `kind` field of POST /_emulator/faults):
// - "error-before": a 5xx before anything executes (nothing committed, idempotency key untouched);
// - "error-after": the request executes and commits, then the answer is a 5xx; per idempotency
//   idempotency rule 6 (docs/contract/idempotency.md#rule-6) the 5xx is not stored and the key is released, so a retry with the same key re-executes
//   (the service's documented behaviour: a client must reconcile before trusting a retry);
// - "drop-after": the request executes and commits (its idempotent response stored), then the
//   connection is destroyed without an answer: a retry with the same key replays;
// - "drop-before": the connection is destroyed before anything executes;
// - "delay": the answer is delayed by `delayMs` (after the idempotency claim, so a concurrent
//   request with the same key sees the in-progress 409);
// - "delay-after": the request executes and commits (response stored), then the answer is held for
//   `delayMs`: the window in which a client can die having made an object it never heard of;
// - "rate-limit": a 429 `Too many requests, rate limited.` with `Retry-After` (`retryAfter`
//   seconds) or, with `retryAfter: null`, without it.
// `path` is a path template (`/v2/accounts/{account_id}/routes`), an exact path, or a glob with
// `*` (one segment or more, e.g. `/v2/accounts/*/api-keys`); `method` "*" matches any method, and
// "POST,PUT" either. `skip` lets that many matching requests through before the fault fires: a test
// can hold the n-th write of a run (delay-after, skip n-1) and kill its caller at that point.
export type FaultMode =
  "error-before" | "error-after" | "drop-before" | "drop-after" | "delay" | "delay-after" | "rate-limit";
export const FAULT_MODES: readonly FaultMode[] = [
  "error-before",
  "error-after",
  "drop-before",
  "drop-after",
  "delay",
  "delay-after",
  "rate-limit",
];

/** @deprecated use `FaultMode` ("kind" names only a resource kind now). */
export type FaultKind = FaultMode;
/** @deprecated use `FAULT_MODES`. */
export const FAULT_KINDS = FAULT_MODES;

export interface FaultSpec {
  method: string;
  path: string;
  /** The fault's mode. Named `kind` on the wire (the control API's JSON), which stays as it is. */
  kind: FaultMode;
  count?: number;
  status?: number;
  delayMs?: number;
  retryAfter?: number | null;
  /** Matching requests let through before the fault fires (default 0). */
  skip?: number;
}

export interface Fault extends Required<Omit<FaultSpec, "retryAfter">> {
  id: number;
  retryAfter: number | null;
  remaining: number;
  fired: number;
}

export class Faults {
  private list: (Fault & { re: RegExp })[] = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    if (!FAULT_MODES.includes(spec.kind)) throw new RangeError(`kind must be one of ${FAULT_MODES.join(", ")}`);
    if (typeof spec.method !== "string" || typeof spec.path !== "string" || !spec.path.startsWith("/")) {
      throw new RangeError("method and path (starting with /) are required");
    }
    const count = spec.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 1_000_000)
      throw new RangeError("count must be an integer 1–1000000");
    const status = spec.status ?? (spec.kind === "rate-limit" ? 429 : 500);
    if (spec.kind.startsWith("error") && (status < 500 || status > 599)) throw new RangeError("status must be 5xx");
    const delayMs = spec.delayMs ?? 0;
    if (!Number.isFinite(delayMs) || delayMs < 0 || delayMs > 600_000) throw new RangeError("delayMs must be 0–600000");
    const skip = spec.skip ?? 0;
    if (!Number.isInteger(skip) || skip < 0 || skip > 1_000_000)
      throw new RangeError("skip must be an integer 0–1000000");
    const retryAfter = spec.retryAfter === undefined ? 1 : spec.retryAfter;
    if (retryAfter !== null && (!Number.isInteger(retryAfter) || retryAfter < 0)) {
      throw new RangeError("retryAfter must be a non-negative integer or null");
    }
    const f = {
      id: this.nextId++,
      method: spec.method.toUpperCase(),
      path: spec.path,
      kind: spec.kind,
      count,
      status,
      delayMs,
      retryAfter,
      skip,
      remaining: count,
      fired: 0,
      re: globToRegExp(spec.path),
    };
    this.list.push(f);
    return strip(f);
  }

  clear(): void {
    this.list = [];
  }

  all(): Fault[] {
    return this.list.map(strip);
  }

  /** The first live fault for this request, consumed by one firing. */
  take(method: string, path: string, template: string): Fault | undefined {
    if (this.list.length === 0) return undefined;
    for (const f of this.list) {
      if (f.remaining <= 0) continue;
      if (f.method !== "*" && !f.method.split(",").includes(method)) continue;
      if (f.path !== template && !f.re.test(path)) continue;
      if (f.skip > 0) {
        f.skip--;
        continue;
      }
      f.remaining--;
      f.fired++;
      return strip(f);
    }
    return undefined;
  }
}

function strip(f: Fault & { re?: RegExp }): Fault {
  const { re: _re, ...rest } = f;
  return rest;
}

function globToRegExp(glob: string): RegExp {
  const esc = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".+");
  return new RegExp(`^${esc}$`);
}
