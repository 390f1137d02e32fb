// Retry-After parsing (RFC 9110 §10.2.3): either a non-negative integer number of seconds or an
// HTTP-date. Anything else is invalid and the caller falls back to its own backoff: the service's
// docs say not to depend on the header, so a garbled value must never stall or crash a run.

/** Delay in milliseconds, or undefined when the header is absent or invalid. Past dates give 0. */
export function parseRetryAfter(value: string | undefined | null, nowMs: number): number | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  if (v === "") return undefined;
  if (/^\d+$/.test(v)) {
    const seconds = Number(v);
    // Absurd values (beyond a day) are treated as invalid rather than trusted to pause a deploy.
    return seconds <= 86_400 ? seconds * 1000 : undefined;
  }
  // HTTP-date: IMF-fixdate (preferred), RFC 850 or asctime. Require a weekday name and a 4-digit year
  // or the RFC 850 form, so stray numbers like "1.5" or "-1" are not read as dates by Date.parse.
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i.test(v)) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  const delay = t - nowMs;
  if (delay > 86_400_000) return undefined;
  return Math.max(0, delay);
}

/**
 * The in-progress 409 carries a *positive integer* Retry-After in seconds (never a date): that, plus
 * `Idempotent-Replayed: false`, is the only way to tell it from the terminal self-lockout 409.
 */
export function parsePositiveIntegerSeconds(value: string | undefined | null): number | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  if (!/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n >= 1 ? n : undefined;
}
