// The narrow view of the HTTP client that the generic provider needs. Keeping it an interface lets
// the factory be unit-tested without a network and keeps provider/core free of transport details.
import type { z } from "zod";

export interface Api {
  get<T>(path: string, schema: z.ZodType<T, unknown>): Promise<T>;
  post<T>(
    path: string,
    body: unknown,
    schema: z.ZodType<T, unknown>,
    opts?: { idempotencyKey?: string },
  ): Promise<{
    data: T;
    replayed: boolean;
    /**
     * A fresh execution that followed an attempt answered with a 5xx. The service does not store 5xx
     * outcomes (docs/contract/idempotency.md#rule-6) and re-executes the retry, so if that earlier attempt had
     * committed before failing, the object now exists twice.
     */
    uncertain?: boolean;
  }>;
  put<T>(path: string, body: unknown, schema: z.ZodType<T, unknown>): Promise<T>;
  delete(path: string): Promise<void>;
  /** Every item of a list endpoint (all pages), with optional filters (`?domain=`). */
  list<T>(path: string, schema: z.ZodType<T, unknown>, query?: Record<string, string>): AsyncIterable<T>;
  /** `GET /v2/ping`: needs no scope, so it fails with 403 only when the caller's address is not allowed. */
  ping?(): Promise<void>;
}

/** Errors are classified by the client (`category`); the provider only branches on these few. */
export function errorCategory(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "category" in err
    ? String((err as { category: unknown }).category)
    : undefined;
}

/** @deprecated use `errorCategory` (the same function). */
export const errorKind = errorCategory;

export const isNotFound = (err: unknown): boolean => errorCategory(err) === "not-found";
export const isForbidden = (err: unknown): boolean => errorCategory(err) === "forbidden";
export const isConflict = (err: unknown): boolean => errorCategory(err) === "conflict";
/** A 422 to a keyed request: the key was used before with another body (docs/contract/idempotency.md#rule-2). */
export const isIdempotencyMismatch = (err: unknown): boolean => errorCategory(err) === "idempotency-mismatch";
/** True when the client retried the call before this error (an earlier attempt may have executed). */
export const wasRetried = (err: unknown): boolean =>
  typeof err === "object" && err !== null && (err as { retried?: unknown }).retried === true;
/**
 * True when the error is a stored outcome of an earlier request with the same Idempotency-Key,
 * replayed by the service (`Idempotent-Replayed: true`): what it said then, not what it says today.
 */
export const wasReplayed = (err: unknown): boolean =>
  typeof err === "object" && err !== null && (err as { replayed?: unknown }).replayed === true;
