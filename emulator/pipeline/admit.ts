// Admission: who is calling and whether they may call now. Failures here (401, 403, 404 for a
// foreign account, 429) happen before idempotency and are never stored (authentication rule 7).
import { authenticate, checkAccountParam, checkSuspension, isSubAccountKey } from "../auth";
import type { Ctx, Endpoint } from "../context";
import type { Counters } from "../counters";
import { HttpError, RATE_LIMITED, forbidden } from "../http/errors";
import type { RateLimiter } from "../rateLimit";

export interface Limiters {
  general: RateLimiter;
  /** The statistics endpoints have their own, slower bucket. */
  statistics: RateLimiter;
}

/** The key (and IP allow list), the account in the path, parent-only endpoints, suspension. */
export function authenticateCaller(ctx: Ctx, endpoint: Endpoint, authorization: string | undefined): void {
  authenticate(ctx, authorization);
  checkAccountParam(ctx);
  if (endpoint.parentOnly && isSubAccountKey(ctx)) throw forbidden(endpoint.parentOnly);
  checkSuspension(ctx);
}

/** The account's rate limit: a 429 with Retry-After when its bucket is empty. */
export function rateLimit(ctx: Ctx, limiters: Limiters, counters: Counters): void {
  const limiter = ctx.template.includes("/statistics") ? limiters.statistics : limiters.general;
  const wait = limiter.take(ctx.account.id, ctx.now);
  counters.rateLimit(ctx.key.id, ctx.account.id, wait === 0);
  if (wait > 0) throw new HttpError(429, RATE_LIMITED, { "retry-after": String(wait) });
}
