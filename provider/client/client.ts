// The typed client the dynamic providers use. One logical call = prepare it once (prepare.ts), then
// run attempts (attempts.ts): rate-limit slot, attempt, classify, maybe wait and retry (same
// Idempotency-Key every time), validate, return.
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
import { runAttempts, type ApiResponse } from "./attempts";
import { systemClock, type Clock } from "./clock";
import { sharedDispatcher } from "./http";
import type { ErrorCategory } from "./errors";
import { emit, type Logger } from "./logger";
import { resolveOptions, type ResolvedOptions, type TxmailClientOptions } from "./options";
import { DEFAULT_MAX_PAGES, MAX_PAGE_SIZE, findFirst, paginate } from "./pagination";
import { prepareCall, type Query } from "./prepare";
import { registerSecret } from "./redact";
import type { HttpMethod } from "./retry";
import { sharedBucket, type PaceSnapshot, type TokenBucket } from "./pace";

export type { ApiResponse } from "./attempts";
export type { Query, QueryValue } from "./prepare";

export interface RequestOptions {
  query?: Query;
  /** POST creates only. Sent unchanged on every attempt; never logged. At most 255 characters. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** The scope this operation needs, named in the message of a 403. */
  scope?: string;
}

export interface ListOptions {
  query?: Query;
  /** 1–100; default 100 (fewest requests). */
  pageSize?: number;
  maxPages?: number;
  signal?: AbortSignal;
  scope?: string;
}

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

  /** The general form behind the helpers: prepare the call once, then run its attempts. */
  async request<S extends z.ZodType>(
    method: HttpMethod,
    path: string,
    schema: S,
    opts: RequestOptions & { body?: unknown } = {},
  ): Promise<ApiResponse<z.output<S>>> {
    const call = prepareCall(method, path, opts, {
      apiKey: this.#apiKey,
      prefix: this.#opts.prefix,
      userAgent: this.#opts.userAgent,
    });
    return runAttempts(call, schema, {
      origin: this.#opts.origin,
      dispatcher: this.#dispatcher ?? sharedDispatcher(this.#opts.origin, this.#opts.timeouts),
      retry: this.#opts.retry,
      clock: this.#clock,
      random: this.#random,
      logger: this.#logger,
      bucket: this.#bucket,
    });
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

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127\./.test(host);
}

export type { ErrorCategory };
