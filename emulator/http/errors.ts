// Errors and replies. Every v2 error body is exactly `{ message }` (docs/contract/errors.md#rule-1).
export type Headers = Record<string, string>;

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Headers;
}

/** Thrown by handlers and pipeline steps; becomes `{ message }` with the status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers?: Headers,
  ) {
    super(message);
  }
}

export const badRequest = (m: string) => new HttpError(400, m);
export const unauthorized = (m = "Invalid API key") => new HttpError(401, m);
export const forbidden = (m: string) => new HttpError(403, m);
export const notFound = (m: string) => new HttpError(404, m);
export const conflict = (m: string) => new HttpError(409, m);

export const RATE_LIMITED = "Too many requests, rate limited.";

export function errorReply(e: HttpError): Reply {
  return { status: e.status, body: { message: e.message }, headers: e.headers };
}
