// The attempt loop of one logical call, as named stages:
//   pace (a token from the account's shared limiter) → send one attempt → classify the outcome →
//   accept it, fail, or record the failure / busy answer and wait (backoff or Retry-After) within
//   the retry budget → next attempt, with the same headers and Idempotency-Key.
// Why it is hand-written rather than undici's RetryHandler: see client.ts.
import type { Dispatcher } from "undici";
import type { z } from "zod";
import { backoffDelay } from "./retry";
import type { Clock } from "./clock";
import { TxmailApiError, type ErrorCategory } from "./errors";
import { emit, type Logger } from "./logger";
import type { RetryOptions } from "./options";
import type { PreparedCall } from "./prepare";
import { redact, registerSecretsIn } from "./redact";
import { RetryBudget, type WaitCause } from "./retry";
import { classifyNetworkError, classifyResponse, header, type ResponseDecision } from "./retry";
import type { TokenBucket } from "./pace";
import { send, type RawResponse } from "./http";
import { notJson, parseResponse } from "./validate";

export interface ApiResponse<T> {
  data: T;
  status: number;
  /** True when the service answered with a stored response (`Idempotent-Replayed: true`). */
  replayed: boolean;
  /** Attempts made, the successful one included. */
  attempts: number;
  /**
   * What each failed attempt before the success was (empty when the first attempt succeeded). A fresh
   * (not replayed) create that follows a `server` failure may have executed twice: the API releases
   * the Idempotency-Key after a 5xx and re-executes on retry (idempotency rule 6), so a 5xx produced
   * after the work was committed yields a second object. Providers can reconcile on that signal.
   */
  retriedAfter: ReadonlyArray<{ category: ErrorCategory; status?: number }>;
}

/** What the loop needs from the client that runs it. */
export interface AttemptContext {
  origin: string;
  dispatcher: Dispatcher;
  retry: RetryOptions;
  clock: Clock;
  random: () => number;
  logger: Logger | undefined;
  /** The account's pace, or undefined when pacing is off. */
  bucket: TokenBucket | undefined;
}

/** How much of a non-JSON error body (an HTML page from a proxy) goes into a message. */
const ERROR_SNIPPET_CHARS = 200;

/** One attempt that got an HTTP answer. */
interface Sent {
  raw: RawResponse;
  /** When the attempt went out (after pacing). */
  t0: number;
  /** The pace generation this attempt went out under (a 429 to it is news only if it is current). */
  sentUnder: number | undefined;
}

/** The answer, read. */
interface Answered {
  raw: RawResponse;
  durationMs: number;
  /** The pace generation this attempt went out under (a 429 to it is news only if it is current). */
  sentUnder: number | undefined;
  replayed: boolean;
}

type MakeError = (stopReason?: string) => TxmailApiError;

/** Runs attempts until one succeeds, one fails for good, or the retry budget says stop. */
export async function runAttempts<S extends z.ZodType>(
  call: PreparedCall,
  schema: S,
  ctx: AttemptContext,
): Promise<ApiResponse<z.output<S>>> {
  return new AttemptLoop(call, ctx).run(schema);
}

class AttemptLoop {
  private readonly budget: RetryBudget;
  private readonly retriedAfter: Array<{ category: ErrorCategory; status?: number }> = [];
  private readonly base: { method: PreparedCall["method"]; path: string };

  constructor(
    private readonly call: PreparedCall,
    private readonly ctx: AttemptContext,
  ) {
    this.budget = new RetryBudget(ctx.retry, ctx.clock.now());
    this.base = { method: call.method, path: call.path };
  }

  async run<S extends z.ZodType>(schema: S): Promise<ApiResponse<z.output<S>>> {
    for (let attempt = 1; ; attempt++) {
      let sent: Sent;
      try {
        sent = await this.sendOne();
      } catch (err) {
        await this.afterNetworkFailure(err, attempt);
        continue;
      }
      const answered = this.read(sent);
      const { raw } = answered;
      const decision = classifyResponse(raw.status, raw.headers, {
        hadIdempotencyKey: this.call.idempotent,
        nowMs: this.ctx.clock.now(),
      });
      if (decision.outcome === "success") return this.accept(schema, answered, attempt);
      await this.afterFailedResponse(decision, answered, attempt);
    }
  }

  /** Pace, then send: one HTTP exchange. Throws what the transport (or an abort while pacing) throws. */
  private async sendOne(): Promise<Sent> {
    const { call, ctx } = this;
    let t0 = ctx.clock.now();
    let sentUnder: number | undefined;
    if (ctx.bucket) {
      sentUnder = await ctx.bucket.acquire(call.signal);
      const paced = ctx.clock.now();
      this.budget.busyMs += paced - t0; // waiting for the account's pace is waiting on a busy account
      t0 = paced; // durations in logs exclude the pacing wait
    }
    const raw = await send({
      dispatcher: ctx.dispatcher,
      origin: ctx.origin,
      path: call.fullPath,
      method: call.method,
      headers: call.headers,
      body: call.body,
      signal: call.signal,
    });
    return { raw, t0, sentUnder };
  }

  /** What the answer says before it is classified; secrets in it are registered for redaction first. */
  private read({ raw, t0, sentUnder }: Sent): Answered {
    registerSecretsIn(raw.json); // secret_key / password / secret of a create (or its replay)
    const replayed = header(raw.headers, "idempotent-replayed")?.trim().toLowerCase() === "true";
    return { raw, durationMs: this.ctx.clock.now() - t0, sentUnder, replayed };
  }

  /** A 2xx: logged, validated against the schema, returned with the attempt history. */
  private accept<S extends z.ZodType>(schema: S, a: Answered, attempt: number): ApiResponse<z.output<S>> {
    const { raw, replayed, durationMs } = a;
    this.log("debug", `-> ${raw.status}${replayed ? " (replayed)" : ""} in ${durationMs} ms (attempt ${attempt})`, {
      attempt,
      status: raw.status,
      durationMs,
      replayed,
    });
    const where = { ...this.base, status: raw.status, attempts: attempt };
    if (raw.jsonError) notJson(where, header(raw.headers, "content-type"));
    const data = parseResponse(schema, raw.json, where);
    return { data, status: raw.status, replayed, attempts: attempt, retriedAfter: this.retriedAfter };
  }

  /** No HTTP answer: retried with backoff when the failure is transient and the call retry-safe. */
  private async afterNetworkFailure(err: unknown, attempt: number): Promise<void> {
    const { call } = this;
    const f = classifyNetworkError(err, call.signal?.aborted === true);
    const error: MakeError = (stopReason) =>
      new TxmailApiError({
        ...this.base,
        category: f.category,
        attempts: attempt,
        serviceMessage: f.message,
        code: f.code,
        stopReason,
      });
    if (!f.retryable) throw this.stop(error(), attempt, "debug");
    if (!call.safety.safe) throw this.stop(error(call.safety.reason), attempt, "debug");
    this.retriedAfter.push({ category: f.category });
    this.budget.record("failure");
    const delay = backoffDelay(this.budget.failures, this.ctx.retry, this.ctx.random);
    await this.waitOrThrow("failure", attempt, delay, error, `${f.category}${f.code ? ` (${f.code})` : ""}`);
  }

  /** A non-2xx answer: terminal ones throw; 408/429/5xx/in-progress 409 wait and go round again. */
  private async afterFailedResponse(
    decision: Exclude<ResponseDecision, { outcome: "success" }>,
    a: Answered,
    attempt: number,
  ): Promise<void> {
    const { raw, replayed, durationMs } = a;
    const { call, budget } = this;
    const error: MakeError = (stopReason) =>
      new TxmailApiError({
        ...this.base,
        category: decision.category,
        status: raw.status,
        serviceMessage: serviceMessageOf(raw),
        attempts: attempt,
        stopReason,
        replayed,
        hint:
          decision.category === "forbidden" && call.scope
            ? `This operation needs the scope '${call.scope}'.`
            : undefined,
      });

    if (decision.outcome === "fail") {
      this.log(
        "debug",
        `-> ${raw.status}${replayed ? " (replayed)" : ""} (${decision.category}, not retryable) in ${durationMs} ms (attempt ${attempt})`,
        { attempt, status: raw.status, durationMs, replayed },
      );
      throw error();
    }

    const cause = budget.record(
      decision.category === "rate-limited" || decision.category === "in-progress" ? decision.category : "failure",
    );
    // Without a Retry-After, a 429 backs off by its own count: it must not jump ahead because
    // failures happened, nor stay short because none did.
    const nth = decision.category === "rate-limited" ? budget.rateLimited : budget.failures;
    const delay = decision.retryAfterMs ?? backoffDelay(nth, this.ctx.retry, this.ctx.random);
    // Pace everyone, not just this request: the limit is per account.
    if (decision.category === "rate-limited") this.ctx.bucket?.penalize(delay, a.sentUnder);
    if (!call.safety.safe) throw this.stop(error(call.safety.reason), attempt, "debug", raw.status);
    this.retriedAfter.push({ category: decision.category, status: raw.status });
    const what = `${raw.status} (${decision.category}${decision.retryAfterMs !== undefined ? ", Retry-After" : ""})`;
    await this.waitOrThrow(cause, attempt, delay, error, what, raw.status);
  }

  /** Sleeps before the next attempt, or throws when the budget for this kind of wait is spent. */
  private async waitOrThrow(
    cause: WaitCause,
    attempt: number,
    delayMs: number,
    error: MakeError,
    what: string,
    status?: number,
  ): Promise<void> {
    const { budget, ctx, call } = this;
    const refusal = budget.refusal(cause, delayMs, ctx.clock.now());
    if (refusal) throw this.stop(error(refusal), attempt, "warn", status);
    emit(ctx.logger, {
      level: "warn",
      message:
        `${call.method} ${call.path} -> ${what}; retrying in ${delayMs} ms ` +
        `(${budget.describe(cause)}${call.idempotent ? ", same Idempotency-Key" : ""})`,
      ...this.base,
      attempt,
      status,
      delayMs,
    });
    const slept = ctx.clock.now();
    try {
      await ctx.clock.sleep(delayMs, call.signal);
    } catch {
      throw new TxmailApiError({
        ...this.base,
        category: "aborted",
        attempts: attempt,
        serviceMessage: "aborted by the caller",
      });
    }
    if (cause === "busy") budget.busyMs += ctx.clock.now() - slept;
  }

  /** Logs why a call ends without success (so every attempt yields exactly one log entry). */
  private stop(err: TxmailApiError, attempt: number, level: "debug" | "warn", status?: number): TxmailApiError {
    emit(this.ctx.logger, { level, message: err.message, method: err.method, path: err.path, attempt, status });
    return err;
  }

  /** A per-attempt debug line: "METHOD path <what>". */
  private log(
    level: "debug",
    what: string,
    fields: { attempt: number; status: number; durationMs: number; replayed: boolean },
  ): void {
    emit(this.ctx.logger, { level, message: `${this.base.method} ${this.base.path} ${what}`, ...this.base, ...fields });
  }
}

/** The service's `{message}`, or a short snippet of a non-JSON error body (a proxy's HTML page). */
function serviceMessageOf(raw: RawResponse): string | undefined {
  const j = raw.json as { message?: unknown } | undefined;
  if (j && typeof j === "object" && typeof j.message === "string") return j.message;
  const text = raw.text.trim();
  if (text === "") return undefined;
  const snippet = text.length > ERROR_SNIPPET_CHARS ? `${text.slice(0, ERROR_SNIPPET_CHARS)}…` : text;
  return redact(snippet.replace(/\s+/g, " "));
}
