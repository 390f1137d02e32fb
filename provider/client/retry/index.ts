// The retry layer: which requests may be retried and which answers are worth it (retryPolicy.ts,
// the contract's table), `Retry-After` (retryAfter.ts), the backoff between attempts (backoff.ts),
// and what one call may still spend on waiting (retryBudget.ts).
export * from "./retryPolicy";
export * from "./retryAfter";
export * from "./backoff";
export * from "./retryBudget";
