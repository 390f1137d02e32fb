// The typed client the dynamic providers use. One logical call = rate-limit slot, attempt, classify,
// maybe wait and retry (same Idempotency-Key every time), validate, return.
//
// Why the retry loop is hand-written instead of undici's RetryHandler / retry interceptor:
// - retry safety is per request, not per method: a POST is retryable only with an Idempotency-Key,
//   and check-dns/suspend/unsuspend never are;
// - the in-progress 409 is retryable only when `Idempotent-Replayed: false` *and* a positive integer
//   Retry-After are both present, while every other 409 is terminal — RetryHandler decides on status
//   codes alone and would have to retry all 409s or none;
// - each attempt must take a token from the shared rate limiter and a 429 must pause that limiter for
//   everyone; RetryHandler re-dispatches internally, below our limiter;
// - a 429 and the in-progress 409 are the service asking us to wait, not failures: they must not use
//   up attempts, only a separate, longer time budget (retryBudget.ts);
// - we need a total time budget, an injectable clock for tests, attempt counts on the error, and a log
//   line per retry; RetryHandler's timers are real setTimeouts and its error hides the attempt history.
import type { Dispatcher } from "undici";
import { z } from "zod";
import { ListOf, MessageResponse } from "../api/common";
import { paths } from "../api/paths";
import { backoffDelay } from "./backoff";
import { systemClock, type Clock } from "./clock";
import { sharedDispatcher } from "./dispatcher";
import { TxmailApiError, stripQuery, type ErrorKind } from "./errors";
import { emit, type Logger } from "./logger";
import { resolveOptions, type ResolvedOptions, type TxmailClientOptions } from "./options";
import { DEFAULT_MAX_PAGES, MAX_PAGE_SIZE, findFirst, paginate } from "./pagination";
import { redact, registerSecret, registerSecretsIn } from "./redact";
import { RetryBudget, type WaitCause } from "./retryBudget";
import { classifyNetworkError, classifyResponse, header, retrySafety, type HttpMethod } from "./retryPolicy";
import { sharedBucket, type PaceSnapshot, type TokenBucket } from "./tokenBucket";
import { send, type RawResponse } from "./transport";
import { parseResponse, notJson } from "./validate";

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  /** POST creates only. Sent unchanged on every attempt; never logged. At most 255 characters. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** The scope this operation needs, named in the message of a 403. */
  scope?: string;
}

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
   * the Idempotency-Key after a 5xx and re-executes on retry (docs/contract/idempotency.md#rule-6), so a 5xx produced
   * after the work was committed yields a second object. Providers can reconcile on that signal.
   */
  retriedAfter: ReadonlyArray<{ kind: ErrorKind; status?: number }>;
}

export interface ListOptions {
  query?: Query;
  /** 1–100; default 100 (fewest requests). */
  pageSize?: number;
  maxPages?: number;
  signal?: AbortSignal;
  scope?: string;
}

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** How much of a non-JSON error body (an HTML page from a proxy) goes into a message. */
const ERROR_SNIPPET_CHARS = 200;

export class TxmailClient {
  // ES private: invisible to JSON.stringify, Object.keys, util.inspect and Pulumi's closure serializer.
  readonly #apiKey: string;
  readonly #opts: ResolvedOptions;
  readonly #logger: Logger | undefined;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #bucket: TokenBucket | undefined;

  constructor(options: TxmailClientOptions) {
    if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") {
      throw new TypeError("txmail: an API key is required");
    }
    registerSecret(options.apiKey);
    this.#apiKey = options.apiKey;
    this.#opts = resolveOptions(options);
    this.#logger = options.logger;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#dispatcher = options.dispatcher;
    const rl = this.#opts.rateLimit;
    this.#bucket = rl
      ? sharedBucket(
          `${this.#opts.origin}${this.#opts.prefix}|${options.accountId ?? "*"}`,
          rl,
          this.#clock,
          this.#opts.paceDir === false ? undefined : this.#opts.paceDir,
        )
      : undefined;
    if (this.#opts.baseUrl.protocol === "http:" && !isLoopback(this.#opts.baseUrl.hostname)) {
      emit(this.#logger, {
        level: "warn",
        message: `baseUrl ${this.#opts.origin} is plain http: the API key travels unencrypted`,
        method: "-",
        path: "-",
        attempt: 0,
      });
    }
  }

  /** The base URL in use (no secrets in it). */
  get baseUrl(): string {
    return this.#opts.baseUrl.href;
  }

  /**
   * The account's client-side pace right now — one per (base URL, account), shared by every client
   * and key of the account in this process and, by default, by every process on the machine
   * (`sharedBy`) — or undefined when pacing is off.
   */
  get pace(): PaceSnapshot | undefined {
    return this.#bucket?.snapshot();
  }

  /** GET and validate. */
  async get<S extends z.ZodType>(path: string, schema: S, opts: RequestOptions = {}): Promise<z.output<S>> {
    return (await this.request("GET", path, schema, opts)).data;
  }

  /** POST and validate. Returns the envelope: creates need `replayed`. */
  async post<S extends z.ZodType>(
    path: string,
    body: unknown,
    schema: S,
    opts: RequestOptions = {},
  ): Promise<ApiResponse<z.output<S>>> {
    return this.request("POST", path, schema, { ...opts, body });
  }

  /** PUT (partial update) and validate. */
  async put<S extends z.ZodType>(
    path: string,
    body: unknown,
    schema: S,
    opts: RequestOptions = {},
  ): Promise<z.output<S>> {
    return (await this.request("PUT", path, schema, { ...opts, body })).data;
  }

  /** DELETE; the service answers `{message}`. */
  async delete<S extends z.ZodType = typeof MessageResponse>(
    path: string,
    schema?: S,
    opts: RequestOptions = {},
  ): Promise<z.output<S>> {
    return (await this.request("DELETE", path, schema ?? (MessageResponse as unknown as S), opts)).data;
  }

  /** `GET /v2/ping`: proves the key authenticates (and the IP is allowed). */
  async ping(opts: RequestOptions = {}): Promise<z.output<typeof MessageResponse>> {
    return this.get(paths.ping(), MessageResponse, opts);
  }

  /** Every item of a list endpoint, page by page (`after` cursors), fetched lazily. */
  list<S extends z.ZodType>(
    path: string,
    itemSchema: S,
    opts: ListOptions = {},
  ): AsyncGenerator<z.output<S>, void, undefined> {
    const pageSize = opts.pageSize ?? MAX_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw new RangeError(`txmail: pageSize must be an integer 1–${MAX_PAGE_SIZE}`);
    }
    const pageSchema = ListOf(itemSchema);
    return paginate<z.output<S>>(
      async (after) => {
        const query: Query = { ...opts.query, limit: pageSize, after };
        const page = await this.get(path, pageSchema, { query, signal: opts.signal, scope: opts.scope });
        return page as { object: "list"; data: z.output<S>[]; pagination: typeof page.pagination };
      },
      { maxPages: opts.maxPages ?? DEFAULT_MAX_PAGES, method: "GET", path },
    );
  }

  /**
   * Finds one item by id in a list endpoint (for read/import where no GET-by-id exists, e.g. a sub
   * account that may be soft-deleted). Stops paging as soon as it is found.
   */
  async findById<S extends z.ZodType<{ id: string }>>(
    path: string,
    itemSchema: S,
    id: string,
    opts: ListOptions = {},
  ): Promise<z.output<S> | undefined> {
    return findFirst(this.list(path, itemSchema, opts), (item) => (item as { id: string }).id === id);
  }

  /** The general form behind the helpers. */
  async request<S extends z.ZodType>(
    method: HttpMethod,
    path: string,
    schema: S,
    opts: RequestOptions & { body?: unknown } = {},
  ): Promise<ApiResponse<z.output<S>>> {
    const key = opts.idempotencyKey;
    if (key !== undefined) {
      if (method !== "POST") throw new TypeError("txmail: Idempotency-Key is only supported on POST");
      if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
        throw new TypeError(
          `txmail: Idempotency-Key must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`,
        );
      }
    }
    if (!path.startsWith("/")) throw new TypeError("txmail: path must start with '/'");

    const bare = stripQuery(path);
    const fullPath = this.#opts.prefix + path + queryString(opts.query, path.includes("?"));
    let body: string | undefined;
    if (opts.body !== undefined) {
      registerSecretsIn(opts.body); // e.g. dkim_private_key: must never come back in an error message
      body = JSON.stringify(opts.body);
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#apiKey}`,
      accept: "application/json",
      "user-agent": this.#opts.userAgent,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (key !== undefined) headers["idempotency-key"] = key;

    const safety = retrySafety(method, bare, key !== undefined);
    const { retry } = this.#opts;
    const started = this.#clock.now();
    const dispatcher = this.#dispatcher ?? sharedDispatcher(this.#opts.origin, this.#opts.timeouts);
    const base = { method, path: bare };

    const retriedAfter: Array<{ kind: ErrorKind; status?: number }> = [];
    const budget = new RetryBudget(retry, started);

    for (let attempt = 1; ; attempt++) {
      let raw: RawResponse;
      let t0 = this.#clock.now();
      /** The pace generation this attempt went out under (a 429 to it is news only if it is current). */
      let sentUnder: number | undefined;
      try {
        if (this.#bucket) {
          sentUnder = await this.#bucket.acquire(opts.signal);
          const paced = this.#clock.now();
          budget.busyMs += paced - t0; // waiting for the account's pace is waiting on a busy account
          t0 = paced; // durations in logs exclude the pacing wait
        }
        raw = await send({
          dispatcher,
          origin: this.#opts.origin,
          path: fullPath,
          method,
          headers,
          body,
          signal: opts.signal,
        });
      } catch (err) {
        const f = classifyNetworkError(err, opts.signal?.aborted === true);
        const error = (stopReason?: string) =>
          new TxmailApiError({
            ...base,
            kind: f.kind,
            attempts: attempt,
            serviceMessage: f.message,
            code: f.code,
            stopReason,
          });
        if (!f.retryable) throw this.#stop(error(), attempt, "debug");
        if (!safety.safe) throw this.#stop(error(safety.reason), attempt, "debug");
        retriedAfter.push({ kind: f.kind });
        budget.record("failure");
        await this.#waitOrThrow(budget, "failure", attempt, backoffDelay(budget.failures, retry, this.#random), error, {
          ...base,
          what: `${f.kind}${f.code ? ` (${f.code})` : ""}`,
          signal: opts.signal,
          idempotent: key !== undefined,
        });
        continue;
      }

      registerSecretsIn(raw.json); // secret_key / password / secret of a create (or its replay)
      const replayed = header(raw.headers, "idempotent-replayed")?.trim().toLowerCase() === "true";
      const durationMs = this.#clock.now() - t0;
      const decision = classifyResponse(raw.status, raw.headers, {
        hadIdempotencyKey: key !== undefined,
        nowMs: this.#clock.now(),
      });

      if (decision.outcome === "success") {
        emit(this.#logger, {
          level: "debug",
          message: `${method} ${bare} -> ${raw.status}${replayed ? " (replayed)" : ""} in ${durationMs} ms (attempt ${attempt})`,
          ...base,
          attempt,
          status: raw.status,
          durationMs,
          replayed,
        });
        const ctx = { ...base, status: raw.status, attempts: attempt };
        if (raw.jsonError) notJson(ctx, header(raw.headers, "content-type"));
        const data = parseResponse(schema, raw.json, ctx);
        return { data, status: raw.status, replayed, attempts: attempt, retriedAfter };
      }

      const error = (stopReason?: string) =>
        new TxmailApiError({
          ...base,
          kind: decision.kind,
          status: raw.status,
          serviceMessage: serviceMessageOf(raw),
          attempts: attempt,
          stopReason,
          replayed,
          hint:
            decision.kind === "forbidden" && opts.scope ? `This operation needs the scope '${opts.scope}'.` : undefined,
        });

      if (decision.outcome === "fail") {
        emit(this.#logger, {
          level: "debug",
          message: `${method} ${bare} -> ${raw.status}${replayed ? " (replayed)" : ""} (${decision.kind}, not retryable) in ${durationMs} ms (attempt ${attempt})`,
          ...base,
          attempt,
          status: raw.status,
          durationMs,
          replayed,
        });
        throw error();
      }

      const cause = budget.record(
        decision.kind === "rate-limited" || decision.kind === "in-progress" ? decision.kind : "failure",
      );
      // Without a Retry-After, a 429 backs off by its own count: it must not jump ahead because
      // failures happened, nor stay short because none did.
      const nth = decision.kind === "rate-limited" ? budget.rateLimited : budget.failures;
      const delay = decision.retryAfterMs ?? backoffDelay(nth, retry, this.#random);
      // Pace everyone, not just this request: the limit is per account.
      if (decision.kind === "rate-limited") this.#bucket?.penalize(delay, sentUnder);
      if (!safety.safe) throw this.#stop(error(safety.reason), attempt, "debug", raw.status);
      retriedAfter.push({ kind: decision.kind, status: raw.status });
      await this.#waitOrThrow(budget, cause, attempt, delay, error, {
        ...base,
        what: `${raw.status} (${decision.kind}${decision.retryAfterMs !== undefined ? ", Retry-After" : ""})`,
        status: raw.status,
        signal: opts.signal,
        idempotent: key !== undefined,
      });
    }
  }

  /** Sleeps before the next attempt, or throws when the budget for this kind of wait is spent. */
  async #waitOrThrow(
    budget: RetryBudget,
    cause: WaitCause,
    attempt: number,
    delayMs: number,
    error: (stopReason?: string) => TxmailApiError,
    log: { method: HttpMethod; path: string; what: string; status?: number; signal?: AbortSignal; idempotent: boolean },
  ): Promise<void> {
    const refusal = budget.refusal(cause, delayMs, this.#clock.now());
    if (refusal) throw this.#stop(error(refusal), attempt, "warn", log.status);
    emit(this.#logger, {
      level: "warn",
      message:
        `${log.method} ${log.path} -> ${log.what}; retrying in ${delayMs} ms ` +
        `(${budget.describe(cause)}${log.idempotent ? ", same Idempotency-Key" : ""})`,
      method: log.method,
      path: log.path,
      attempt,
      status: log.status,
      delayMs,
    });
    const slept = this.#clock.now();
    try {
      await this.#clock.sleep(delayMs, log.signal);
    } catch {
      throw new TxmailApiError({
        method: log.method,
        path: log.path,
        kind: "aborted",
        attempts: attempt,
        serviceMessage: "aborted by the caller",
      });
    }
    if (cause === "busy") budget.busyMs += this.#clock.now() - slept;
  }

  /** Logs why a call ends without success (so every attempt yields exactly one log entry). */
  #stop(err: TxmailApiError, attempt: number, level: "debug" | "warn", status?: number): TxmailApiError {
    emit(this.#logger, { level, message: err.message, method: err.method, path: err.path, attempt, status });
    return err;
  }

  /** Never reveal the key, whatever prints this object. */
  toJSON(): Record<string, unknown> {
    return { type: "TxmailClient", baseUrl: this.baseUrl };
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `TxmailClient { baseUrl: ${JSON.stringify(this.baseUrl)} }`;
  }
}

/** Builds a client. Call it inside provider methods (never keep the result in a provider's fields). */
export function createClient(options: TxmailClientOptions): TxmailClient {
  return new TxmailClient(options);
}

function queryString(q: Query | undefined, pathHasQuery: boolean): string {
  if (!q) return "";
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null) sp.append(k, String(v));
  const s = sp.toString();
  return s === "" ? "" : `${pathHasQuery ? "&" : "?"}${s}`;
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

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127\./.test(host);
}

export type { ErrorKind };
