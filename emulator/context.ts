// What a handler sees: the services, the request, and the authenticated key and account.
import type { EndpointName } from "../provider/api/endpoints";
import type { Clock } from "./clock";
import type { Sealer } from "./crypto";
import type { DnsSettings } from "./dns";
import { parseJson } from "./http/body";
import type { Reply } from "./http/errors";
import type { AccountData, KeyData } from "./records";
import type { Db } from "./store/db";
import type { Objects } from "./store/objects";
import type { Receptions } from "./store/receptions";

export interface Services {
  db: Db;
  objects: Objects;
  receptions: Receptions;
  clock: Clock;
  sealer: Sealer;
  /** The bootstrap parent account. */
  parentAccountId: string;
  /** How `check-dns` checks: the cache, and the DNS server when it resolves for real. */
  dns: DnsSettings;
}

/** A scope the endpoint needs before the idempotency step: a fixed scope, or any scope of a family verb. */
export type ScopeNeed = { fixed: string } | { family: string; verb: string };

/** How the emulator serves endpoints of the service's table (provider/api/endpoints.ts), by name. */
export type EmulatedEndpoints = Partial<Record<EndpointName, Endpoint>>;

/** One `METHOD /template` of the service: what the pipeline checks before calling its handler. */
export interface Endpoint {
  scope?: ScopeNeed;
  /** POST creates declaring Idempotency-Key; "secret" = the two key-creation operations (idempotency rule 7). */
  idempotent?: "plain" | "secret";
  /** Set on endpoints a sub-account key may not call at all, with the reason. */
  parentOnly?: string;
  /** Query parameters the endpoint accepts; any other is a 400. */
  query?: readonly string[];
  /** "none": the endpoint takes no body (a non-empty body is a 400). */
  body?: "none" | "json";
  /** Unauthenticated endpoint (none in v2 today). */
  public?: boolean;
  /**
   * Asynchronous work before the handler (which runs synchronously inside the store's transaction),
   * e.g. check-dns's DNS lookups: its result is `ctx.prepared`. It stores nothing; what it throws is
   * the answer (pipeline/prepare.ts).
   */
  prepare?(ctx: Ctx): Promise<unknown>;
  handler(ctx: Ctx): Reply;
}

export class Ctx {
  key!: KeyData;
  account!: AccountData;
  /** What the endpoint's `prepare` returned (undefined without one); the handler narrows it. */
  prepared: unknown;
  private parsed: { v: unknown } | undefined;
  constructor(
    readonly svc: Services,
    readonly method: string,
    readonly path: string,
    readonly template: string,
    readonly params: Record<string, string>,
    readonly query: URLSearchParams,
    readonly raw: Buffer,
    readonly contentType: string | undefined,
    readonly clientIp: string,
    public now: number,
  ) {}
  json(): unknown {
    if (!this.parsed) this.parsed = { v: parseJson(this.raw, this.contentType) };
    return this.parsed.v;
  }
  iso(): string {
    return new Date(this.now).toISOString();
  }
  get accountId(): string {
    return this.account.id;
  }
}
