// Client configuration and its defaults, chosen for `pulumi up` in CI on an account whose limit is
// shared with production traffic: failures (network, 5xx) are bounded so a dead endpoint fails the
// run in about 2 minutes, while a busy account (429s, an identical create in progress) is waited
// out for up to 10 minutes — long stretches of 429s are normal there, not a fault.
import type { Dispatcher } from "undici";
import { PUBLIC_BASE_URL } from "../api/paths";
import type { Clock } from "./clock";
import { DEFAULT_TIMEOUTS, type Timeouts } from "./http";
import type { Logger } from "./logger";
import { defaultPaceDir } from "./pace";
import { DEFAULT_RATE_LIMIT, type RateLimitOptions } from "./pace";

export interface RetryOptions {
  /**
   * Attempts per logical call that may fail (network, timeout, 408, 5xx), the first included. Answers
   * that ask the caller to wait — 429 and the in-progress 409 — do not use up attempts.
   */
  maxAttempts: number;
  /**
   * Time budget for failures: no failed attempt is retried beyond this much time spent on the call,
   * not counting time spent waiting on a busy account (429s, in-progress 409s, client-side pacing).
   */
  maxElapsedMs: number;
  /**
   * How long one call may wait in total on a busy account: 429 waits (Retry-After, or backoff when
   * absent), in-progress 409 waits, and the account's client-side pace. The provider reads it from
   * TXMAIL_BUSY_WAIT_SECONDS.
   */
  maxBusyWaitMs: number;
  /** First backoff delay (doubles per retry, with jitter), used when the server gives no Retry-After. */
  baseDelayMs: number;
  /** Cap of a computed backoff delay. A server's Retry-After is authoritative and may exceed it. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 8,
  maxElapsedMs: 120_000,
  maxBusyWaitMs: 600_000,
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
  /**
   * Where the account's pace is shared with the other processes on this machine (a fleet's shards):
   * default a per-user directory under the OS temp dir; `false` paces this process alone. The
   * provider reads it from TXMAIL_PACE_DIR (`off` = false).
   */
  paceDir?: string | false;
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
  paceDir: string | false;
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
    !(retry.maxBusyWaitMs >= 0) ||
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
    paceDir: o.paceDir ?? defaultPaceDir(),
  };
}

/** `{...defaults, ...partial}` must not let an explicit `undefined` wipe a default. */
function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
