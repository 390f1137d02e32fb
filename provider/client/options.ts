// Client configuration and its defaults (chosen for `pulumi up` in CI: patient enough to ride out a
// deploy of the API or a rate-limit storm, bounded so a dead endpoint fails the run in about 2 minutes).
import type { Dispatcher } from "undici";
import { PUBLIC_BASE_URL } from "../api/paths";
import type { Clock } from "./clock";
import { DEFAULT_TIMEOUTS, type Timeouts } from "./dispatcher";
import type { Logger } from "./logger";
import { DEFAULT_RATE_LIMIT, type RateLimitOptions } from "./tokenBucket";

export interface RetryOptions {
  /** Attempts per logical call, the first included. */
  maxAttempts: number;
  /** No new attempt starts (and no wait is begun) beyond this much time after the first attempt. */
  maxElapsedMs: number;
  /** First backoff delay (doubles per retry, with jitter), used when the server gives no Retry-After. */
  baseDelayMs: number;
  /** Cap of a computed backoff delay. A server's Retry-After is authoritative and may exceed it. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 8,
  maxElapsedMs: 120_000,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
};

export interface TxmailClientOptions {
  /** Bearer token. Registered for redaction at once; never stored anywhere enumerable. */
  apiKey: string;
  /**
   * The account the key acts for. Only used to partition the shared rate limiter (the service limits
   * per account); paths are built by the caller with `paths.*`.
   */
  accountId?: string;
  /** Default: the public service, `PUBLIC_BASE_URL`. May carry a path prefix. */
  baseUrl?: string;
  userAgent?: string;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryOptions>;
  /** Client-side pacing; `false` disables it (not recommended against the real service). */
  rateLimit?: Partial<RateLimitOptions> | false;
  /** Receives redacted log entries (method, path, status, attempt, delay). */
  logger?: Logger;
  /** Injectable time source for tests. */
  clock?: Clock;
  /** Injectable randomness for jitter, returns [0, 1). */
  random?: () => number;
  /** Custom dispatcher (e.g. undici MockAgent in tests). Default: the shared keep-alive pool. */
  dispatcher?: Dispatcher;
}

export interface ResolvedOptions {
  baseUrl: URL;
  origin: string;
  /** Base URL path without trailing slash ("" for the root). */
  prefix: string;
  userAgent: string;
  timeouts: Timeouts;
  retry: RetryOptions;
  rateLimit: RateLimitOptions | false;
}

export const DEFAULT_USER_AGENT = "pulumi-txmail";

export function resolveOptions(o: TxmailClientOptions): ResolvedOptions {
  const raw = o.baseUrl ?? PUBLIC_BASE_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`txmail: baseUrl is not a valid URL: ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError(`txmail: baseUrl must use https (or http for a local emulator), got ${url.protocol}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new TypeError("txmail: baseUrl must not contain credentials, a query string or a fragment");
  }
  const retry = { ...DEFAULT_RETRY, ...definedOnly(o.retry ?? {}) };
  if (
    !(retry.maxAttempts >= 1) ||
    !(retry.maxElapsedMs >= 0) ||
    !(retry.baseDelayMs >= 0) ||
    !(retry.maxDelayMs >= 0)
  ) {
    throw new RangeError("txmail: retry options must be non-negative and maxAttempts >= 1");
  }
  return {
    baseUrl: url,
    origin: url.origin,
    prefix: url.pathname.replace(/\/+$/, ""),
    userAgent: o.userAgent ?? DEFAULT_USER_AGENT,
    timeouts: { ...DEFAULT_TIMEOUTS, ...definedOnly(o.timeouts ?? {}) },
    retry,
    rateLimit: o.rateLimit === false ? false : { ...DEFAULT_RATE_LIMIT, ...definedOnly(o.rateLimit ?? {}) },
  };
}

/** `{...defaults, ...partial}` must not let an explicit `undefined` wipe a default. */
function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
