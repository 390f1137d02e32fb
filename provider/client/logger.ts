// The optional logging hook. Providers route it to Pulumi's log (pulumi.log.debug/info/warn). Every
// field is redacted before the callback sees it; Idempotency-Keys are never included at all.
import { redact } from "./redact";

export type LogLevel = "debug" | "info" | "warn";

export interface LogEntry {
  level: LogLevel;
  /** One human-readable, already-redacted line. */
  message: string;
  method: string;
  /** Path without query string. */
  path: string;
  /** 1-based attempt number. */
  attempt: number;
  /** HTTP status, absent when no response arrived. */
  status?: number;
  /** The wait before the next attempt, when one is scheduled. */
  delayMs?: number;
  /** How long the attempt took. */
  durationMs?: number;
  /** True when the response was an idempotent replay. */
  replayed?: boolean;
}

export type Logger = (entry: LogEntry) => void;

/** Calls the user's logger with redacted text; a throwing logger must never break a request. */
export function emit(logger: Logger | undefined, entry: LogEntry): void {
  if (!logger) return;
  try {
    logger({ ...entry, message: redact(entry.message), path: redact(entry.path) });
  } catch {
    // Logging is best effort.
  }
}
