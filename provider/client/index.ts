// Public surface of the API client. Providers should `require` this inside their methods (see
// shared/notes/pulumi-facts.md): the module keeps process-wide state (connection pools, rate limiters,
// the secret registry) that must never be captured into a serialized provider object.
export { TxmailClient, createClient } from "./client";
export type { ApiResponse, ListOptions, Query, QueryValue, RequestOptions } from "./client";
export { TxmailApiError, categoryForStatus, kindForStatus, FORBIDDEN_HINT } from "./errors";
export type { ErrorCategory, ErrorKind } from "./errors";
export type { TxmailClientOptions, RetryOptions } from "./options";
export { DEFAULT_RETRY } from "./options";
export type { Logger, LogEntry, LogLevel } from "./logger";
export type { Clock } from "./clock";
export { systemClock, FakeClock } from "./clock";
export { redact, registerSecret, registerSecretsIn, REDACTED } from "./redact";
export { DEFAULT_RATE_LIMIT } from "./pace";
export type { PaceSnapshot, RateLimitOptions } from "./pace";
export { DEFAULT_TIMEOUTS, closeSharedDispatchers } from "./http";
export type { Timeouts } from "./http";
export { paginate, findInPages, MAX_PAGE_SIZE } from "./pagination";
