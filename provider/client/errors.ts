// The one error type the client throws for anything that went wrong talking to the service.
//
// The service has no machine-readable error code (its body is `{message}` only), so `category` is derived
// from the HTTP status plus the few headers that carry meaning (the in-progress 409). Callers branch on
// `category` (e.g. a provider's read treats "not-found" as gone), never on `message` text.
import { redact } from "./redact";

export type ErrorCategory =
  | "not-found" // 404
  | "conflict" // 409 that is not the idempotency in-progress one (duplicate resource, self-lockout)
  | "idempotency-mismatch" // 422 on a request that carried an Idempotency-Key
  | "in-progress" // 409 + Idempotent-Replayed: false + positive integer Retry-After
  | "rate-limited" // 429
  | "unauthorized" // 401
  | "forbidden" // 403 (missing scope or IP allow list; the service does not say which)
  | "validation" // 400, or 422 without an Idempotency-Key
  | "client" // any other 4xx
  | "server" // 5xx
  | "timeout" // 408, or a connect/headers/body timeout: the server may or may not have acted
  | "network" // connection refused/reset/dropped before a response
  | "aborted" // the caller's AbortSignal fired
  | "schema"; // a response whose body does not match the expected schema (or is not JSON)

/** @deprecated use `ErrorCategory` ("kind" names only a resource kind now). */
export type ErrorKind = ErrorCategory;

export interface TxmailApiErrorInit {
  category: ErrorCategory;
  method: string;
  /** Path without query string (ids are fine; query values are never kept). */
  path: string;
  /** HTTP status, or undefined when no response arrived. */
  status?: number;
  /** The service's `message`, if its body had one. */
  serviceMessage?: string;
  /** Total attempts made for this logical call (1 = no retry). */
  attempts: number;
  /** Why the client stopped (e.g. "not retry-safe", "attempt limit", "time budget"). */
  stopReason?: string;
  /** For schema errors: the offending field paths, e.g. `data[3].label`. */
  issues?: ReadonlyArray<{ path: string; message: string }>;
  /** Extra sentence(s) appended to the message (hints). */
  hint?: string;
  /** Underlying error code (e.g. ECONNRESET, UND_ERR_HEADERS_TIMEOUT) for network failures. */
  code?: string;
  /**
   * The service answered with the stored outcome of an earlier request with the same Idempotency-Key
   * (`Idempotent-Replayed: true`, idempotency rule 4 and rule 5: docs/contract/idempotency.md#rule-5), not with what this request would get today.
   */
  replayed?: boolean;
}

export class TxmailApiError extends Error {
  override readonly name = "TxmailApiError";
  readonly category: ErrorCategory;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly attempts: number;
  /** True when more than one attempt was made. */
  readonly retried: boolean;
  readonly stopReason: string | undefined;
  readonly issues: ReadonlyArray<{ path: string; message: string }>;
  readonly code: string | undefined;
  /** A stored failure replayed for an earlier request with the same Idempotency-Key. */
  readonly replayed: boolean;

  constructor(init: TxmailApiErrorInit) {
    super(redact(composeMessage(init)));
    this.category = init.category;
    this.method = init.method;
    this.path = redact(stripQuery(init.path));
    this.status = init.status;
    this.serviceMessage = init.serviceMessage === undefined ? undefined : redact(init.serviceMessage);
    this.attempts = init.attempts;
    this.retried = init.attempts > 1;
    this.stopReason = init.stopReason;
    this.issues = (init.issues ?? []).map((i) => ({ path: i.path, message: redact(i.message) }));
    this.code = init.code;
    this.replayed = init.replayed === true;
  }

  /** @deprecated use `category` (the same value; "kind" names only a resource kind now). */
  get kind(): ErrorCategory {
    return this.category;
  }

  /** True when the server might have carried out the request although no success was seen. */
  get outcomeUnknown(): boolean {
    return this.category === "timeout" || this.category === "network" || this.category === "server";
  }

  /** Plain data for logs and JSON; carries nothing beyond what `message` already shows. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      category: this.category,
      message: this.message,
      method: this.method,
      path: this.path,
      status: this.status,
      attempts: this.attempts,
      retried: this.retried,
      replayed: this.replayed,
      code: this.code,
    };
  }
}

export function stripQuery(path: string): string {
  const q = path.indexOf("?");
  return q === -1 ? path : path.slice(0, q);
}

/** Maps an HTTP error status to a category. `hadIdempotencyKey` separates the idempotency 422. */
export function categoryForStatus(
  status: number,
  opts: { inProgress?: boolean; hadIdempotencyKey?: boolean } = {},
): ErrorCategory {
  if (status === 400) return "validation";
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404) return "not-found";
  if (status === 408) return "timeout";
  if (status === 409) return opts.inProgress ? "in-progress" : "conflict";
  if (status === 422) return opts.hadIdempotencyKey ? "idempotency-mismatch" : "validation";
  if (status === 429) return "rate-limited";
  if (status >= 500) return "server";
  return "client";
}

/** @deprecated use `categoryForStatus` (the same function). */
export const kindForStatus = categoryForStatus;

function composeMessage(i: TxmailApiErrorInit): string {
  const where = `${i.method} ${stripQuery(i.path)}`;
  const head =
    i.status !== undefined
      ? `${where} failed with HTTP ${i.status}${i.replayed ? " (replayed)" : ""}${i.serviceMessage ? `: ${i.serviceMessage}` : ""}`
      : `${where} failed: ${i.serviceMessage ?? i.category}${i.code ? ` (${i.code})` : ""}`;
  const parts = [head];
  const standard = standardHint(i.category, i.code);
  if (standard) parts.push(standard);
  if (i.replayed) parts.push(REPLAYED_HINT);
  if (i.hint) parts.push(i.hint);
  if (i.attempts > 1 || i.stopReason) {
    parts.push(`(${i.attempts} attempt${i.attempts === 1 ? "" : "s"}${i.stopReason ? `; ${i.stopReason}` : ""})`);
  }
  return parts.join(" ");
}

/** A 403 as the service reports it: two possible causes. The provider tells them apart (core/forbidden.ts). */
export const FORBIDDEN_HINT =
  "The API key either lacks the scope this operation needs, or the caller's IP address is outside the " +
  "key's ip_allow_list (the service does not say which).";

/** Why a replayed failure may not be today's answer (the service stores 4xx outcomes for 24 h). */
const REPLAYED_HINT =
  "The service replayed this answer from an earlier request with the same Idempotency-Key; it may no longer hold.";

/** Connection failures that prove the request never reached the service. */
const NEVER_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

function standardHint(category: ErrorCategory, code: string | undefined): string | undefined {
  switch (category) {
    case "idempotency-mismatch":
      return (
        "The Idempotency-Key was already used with a different method, path or body. This indicates a bug " +
        "in idempotency-key derivation (the same key must only ever be sent with the same request)."
      );
    case "forbidden":
      return FORBIDDEN_HINT;
    case "unauthorized":
      return "Check the configured API key.";
    case "in-progress":
      return "Another request with the same Idempotency-Key is still being processed.";
    case "timeout":
    case "network":
      if (code && NEVER_SENT_CODES.has(code)) return undefined;
      return "The outcome is unknown: the server may have acted; reconcile with the same Idempotency-Key or a read.";
    default:
      return undefined;
  }
}
