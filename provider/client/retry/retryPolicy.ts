// Which requests may be retried, and which outcomes are worth retrying — exactly the retry-safety
// rules of the API (docs/contract/retries.md). Pure functions, so the whole table is unit-tested.
import { endpointOf, type HttpMethod, type RetryClass } from "../../api/endpoints";
import { categoryForStatus, type ErrorCategory } from "../errors";
import { parsePositiveIntegerSeconds, parseRetryAfter } from "./retryAfter";

export type { HttpMethod } from "../../api/endpoints";

/** Response headers as undici delivers them (lower-case names). */
export type HeaderBag = Record<string, string | string[] | undefined>;

export function header(h: HeaderBag, name: string): string | undefined {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export interface RetrySafety {
  safe: boolean;
  /** Why not, for the error message. */
  reason?: string;
}

/**
 * The endpoint table's retry class of the call (provider/api/endpoints.ts). A path the table does not
 * know (a caller's own request) is classed by its method: GET/PUT/DELETE safe, a POST keyed-create.
 */
export function retryClassOf(method: HttpMethod, path: string): RetryClass {
  return endpointOf(method, path)?.retry ?? (method === "POST" ? "keyed-create" : "safe");
}

/**
 * GET/PUT/DELETE are idempotent by definition. A POST create is retry-safe only when it carries an
 * Idempotency-Key (the same key on every attempt makes the service execute it at most once); a
 * one-shot action (check-dns, suspend, unsuspend) never is.
 */
export function retrySafety(method: HttpMethod, path: string, hasIdempotencyKey: boolean): RetrySafety {
  switch (retryClassOf(method, path)) {
    case "safe":
      return { safe: true };
    case "one-shot":
      return { safe: false, reason: "not retried: this action is not declared retry-safe by the API" };
    case "keyed-create":
      if (!hasIdempotencyKey) return { safe: false, reason: "not retried: a POST without Idempotency-Key" };
      return { safe: true };
  }
}

export type ResponseDecision =
  | { outcome: "success" }
  /** `retryAfterMs` set = the server's wait, authoritative; unset = use backoff with jitter. */
  | { outcome: "retry"; category: ErrorCategory; retryAfterMs?: number }
  | { outcome: "fail"; category: ErrorCategory };

/**
 * Classifies one HTTP response. Retryable: 408, 429, 5xx and the idempotency in-progress 409, which is
 * recognisable *only* by `Idempotent-Replayed: false` plus a positive integer `Retry-After`. Every other
 * 4xx is terminal: retrying a duplicate-resource or self-lockout 409 would just repeat it.
 */
export function classifyResponse(
  status: number,
  headers: HeaderBag,
  opts: { hadIdempotencyKey: boolean; nowMs: number },
): ResponseDecision {
  if (status >= 200 && status < 300) return { outcome: "success" };

  if (status === 409) {
    const replayed = header(headers, "idempotent-replayed")?.trim().toLowerCase();
    const seconds = parsePositiveIntegerSeconds(header(headers, "retry-after"));
    if (replayed === "false" && seconds !== undefined) {
      return { outcome: "retry", category: "in-progress", retryAfterMs: seconds * 1000 };
    }
    return { outcome: "fail", category: "conflict" };
  }

  if (status === 408 || status === 429 || (status >= 500 && status <= 599)) {
    const retryAfterMs = parseRetryAfter(header(headers, "retry-after"), opts.nowMs);
    const category = categoryForStatus(status);
    return retryAfterMs === undefined ? { outcome: "retry", category } : { outcome: "retry", category, retryAfterMs };
  }

  return { outcome: "fail", category: categoryForStatus(status, { hadIdempotencyKey: opts.hadIdempotencyKey }) };
}

export interface NetworkFailure {
  category: "timeout" | "network" | "aborted";
  retryable: boolean;
  code?: string;
  message: string;
}

/** Timeouts: the request may or may not have reached the service — retry-safe requests are retried. */
const TIMEOUT_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT",
]);

/**
 * Transient connection failures. ENOTFOUND is deliberately absent: a misspelt base URL should fail in
 * seconds, not after the whole retry budget (transient DNS trouble shows up as EAI_AGAIN).
 */
const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ENETDOWN",
  "ENETUNREACH",
  "EHOSTDOWN",
  "EHOSTUNREACH",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

/** Classifies an exception thrown while sending a request or reading its response. */
export function classifyNetworkError(err: unknown, callerAborted: boolean): NetworkFailure {
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: { code?: unknown } } | null;
  const code = typeof e?.code === "string" ? e.code : typeof e?.cause?.code === "string" ? e.cause.code : undefined;
  const message = typeof e?.message === "string" ? e.message : String(err);
  if (callerAborted) return { category: "aborted", retryable: false, code, message: "aborted by the caller" };
  if (code && TIMEOUT_CODES.has(code)) return { category: "timeout", retryable: true, code, message };
  if (code && NETWORK_CODES.has(code)) return { category: "network", retryable: true, code, message };
  return { category: "network", retryable: false, code, message };
}
