// The service emulator: plain HTTP on loopback (the real service is HTTPS-only: docs/contract/conventions.md#emulator), one
// request pipeline for every v2 route:
//   route (404/405) → count → faults → authenticate + IP allow list (401/403) → account in path →
//   parent-only routes → account suspension → rate limit (429) → query → scope (403) →
//   Idempotency-Key (400/409/422/replay) → [delay fault] → handler + stored response in one
//   transaction → [after-commit fault: error-after, drop-after, delay-after] → reply.
// Authentication, allow-list, scope and rate-limit failures happen before idempotency and are
// never stored (authentication rule 7); validation and other handler 4xx are stored (idempotency rule 5).
import { timingSafeEqual, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { normalizeIp } from "./allowList";
import { authenticate, checkAccountParam, checkSuspension, isSubAccountKey } from "./auth";
import { checkNeed } from "./authz";
import { bootstrap } from "./bootstrap";
import { Clock } from "./clock";
import { Ctx, type RouteSpec, type Services } from "./context";
import { Counters } from "./counters";
import { Sealer, loadServerSecret } from "./crypto";
import { Faults } from "./faults";
import { controlRoutes } from "./handlers/control";
import { routes } from "./handlers";
import { readBody } from "./http/body";
import { HttpError, RATE_LIMITED, type Reply, errorReply, forbidden, badRequest, send } from "./http/errors";
import { Router } from "./http/router";
import { type Claim, Idempotency } from "./idempotency";
import { checkQuery } from "./pagination";
import { RateLimiter, type RateSpec } from "./rateLimit";
import { RequestLog } from "./requestLog";
import { Db } from "./store/db";
import { IdemStore } from "./store/idempotency";
import { Objects } from "./store/objects";
import { Receptions } from "./store/receptions";

export interface EmulatorOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  accountId?: string;
  apiKey?: string;
  rateLimit?: RateSpec;
  statisticsRateLimit?: RateSpec;
  trustForwardedFor?: boolean;
  control?: boolean | { token: string };
}

export interface RunningEmulator {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  controlToken?: string;
  close(): Promise<void>;
}

/** Everything the control surface can reach. */
export interface Runtime {
  svc: Services;
  faults: Faults;
  counters: Counters;
  /** Every service request in arrival order, with the status sent (bounded). */
  requests: RequestLog;
  idem: Idempotency;
  idemStore: IdemStore;
}

const SWEEP_MS = 30_000;

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = opts.host ?? "127.0.0.1";
  const db = new Db(opts.dataDir);
  let closed = false;
  try {
    const offset = Number(db.getMeta("clock_offset_ms") ?? "0");
    const clock = new Clock(offset, (o) => db.setMeta("clock_offset_ms", String(o)));
    const sealer = new Sealer(loadServerSecret(opts.dataDir));
    const objects = new Objects(db);
    const receptions = new Receptions(db);
    const boot = bootstrap({ db, objects, receptions, clock, sealer }, opts);
    const svc: Services = { db, objects, receptions, clock, sealer, parentAccountId: boot.accountId };
    const idemStore = new IdemStore(db);
    const idem = new Idempotency(idemStore, sealer, clock);
    const rt: Runtime = {
      svc,
      faults: new Faults(),
      counters: new Counters(),
      requests: new RequestLog(),
      idem,
      idemStore,
    };
    const limiter = new RateLimiter(opts.rateLimit ?? { rps: 100, burst: 200 });
    const statsLimiter = new RateLimiter(opts.statisticsRateLimit ?? { rps: 1, burst: 1 });

    const router = new Router<RouteSpec>();
    for (const [k, spec] of Object.entries(routes)) {
      const [method, template] = k.split(" ") as [string, string];
      router.add(method, template, spec);
    }
    const controlToken =
      opts.control === undefined || opts.control === false
        ? undefined
        : opts.control === true
          ? randomBytes(24).toString("base64url")
          : opts.control.token;
    if (controlToken !== undefined && controlToken.length < 8)
      throw new Error("control token must be at least 8 characters");
    const control = controlToken === undefined ? undefined : controlRoutes(rt);

    const clientIp = (req: IncomingMessage): string => {
      if (opts.trustForwardedFor) {
        const xff = req.headers["x-forwarded-for"];
        const first = (Array.isArray(xff) ? xff[0] : xff)?.split(",")[0]?.trim();
        if (first) return normalizeIp(first);
      }
      return normalizeIp(req.socket.remoteAddress ?? "");
    };

    async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const method = req.method ?? "GET";
      const url = req.url ?? "/";
      const qi = url.indexOf("?");
      const path = qi < 0 ? url : url.slice(0, qi);
      const query = new URLSearchParams(qi < 0 ? "" : url.slice(qi + 1));
      const raw = await readBody(req);

      if (path === "/_emulator" || path.startsWith("/_emulator/")) {
        if (!control || controlToken === undefined) return send(res, { status: 404, body: { message: "not found" } });
        const given = req.headers["x-emulator-control"];
        const a = Buffer.from(typeof given === "string" ? given : "");
        const b = Buffer.from(controlToken);
        if (a.length !== b.length || !timingSafeEqual(a, b)) {
          return send(res, { status: 401, body: { message: "missing or wrong X-Emulator-Control token" } });
        }
        return send(res, control(method, path, query, raw));
      }

      const logged = rt.requests.begin(method, path, clock.iso());
      // Set when the whole answer was handed to the socket; a dropped connection stays null.
      res.once("finish", () => (logged.status = res.statusCode));
      const m = router.match(method, path);
      if ("status" in m) {
        rt.counters.count(method, "(unmatched)");
        if (m.status === 405) {
          return send(res, {
            status: 405,
            body: { message: `method ${method} not allowed` },
            headers: { allow: m.allow.join(", ") },
          });
        }
        return send(res, { status: 404, body: { message: "not found" } });
      }
      rt.counters.count(method, m.template);
      logged.template = m.template;
      const spec = m.route;
      const fault = rt.faults.take(method, path, m.template);
      if (fault?.kind === "rate-limit") {
        return send(res, {
          status: 429,
          body: { message: RATE_LIMITED },
          headers: fault.retryAfter === null ? {} : { "retry-after": String(fault.retryAfter) },
        });
      }
      if (fault?.kind === "error-before") {
        return send(res, {
          status: fault.status,
          body: { message: `injected fault: ${fault.status} before execution` },
        });
      }
      if (fault?.kind === "drop-before") {
        req.socket.destroy();
        return;
      }

      const ctx = new Ctx(
        svc,
        method,
        path,
        m.template,
        m.params,
        query,
        raw,
        req.headers["content-type"],
        clientIp(req),
        clock.now(),
      );
      let claim: Claim | undefined;
      try {
        if (!spec.public) {
          authenticate(ctx, req.headers.authorization);
          checkAccountParam(ctx);
          if (spec.parentOnly && isSubAccountKey(ctx)) throw forbidden(spec.parentOnly);
          checkSuspension(ctx);
          const wait = (m.template.includes("/statistics") ? statsLimiter : limiter).take(ctx.account.id, ctx.now);
          rt.counters.rateLimit(ctx.key.id, ctx.account.id, wait === 0);
          if (wait > 0) throw new HttpError(429, RATE_LIMITED, { "retry-after": String(wait) });
        }
        checkQuery(query, spec.query ?? []);
        if (spec.scope) checkNeed(ctx.key, spec.scope);
        if (spec.body === "none" && raw.length > 0) throw badRequest("this operation takes no request body");
        const header = req.headers["idempotency-key"];
        if (spec.idempotent && header !== undefined) {
          const key = Array.isArray(header) ? header.join(",") : header;
          Idempotency.checkKey(key);
          const d = idem.begin(
            { account: ctx.account.id, key, method, path, secret: spec.idempotent === "secret" },
            raw,
          );
          if ("reply" in d) return send(res, d.reply);
          claim = d.claim;
        }
      } catch (e) {
        if (e instanceof HttpError) return send(res, errorReply(e));
        throw e;
      }

      try {
        if (fault?.kind === "delay") {
          await new Promise((r) => setTimeout(r, fault.delayMs));
          ctx.now = clock.now();
        }
        const c = claim;
        let reply: Reply;
        try {
          reply = db.tx(() => {
            const r = spec.handler(ctx);
            if (c) idem.record(c, r);
            return r;
          });
        } catch (e) {
          if (e instanceof HttpError && e.status < 500) {
            reply = errorReply(e);
            if (c) {
              const r = reply;
              db.tx(() => idem.record(c, r));
            }
          } else {
            if (c) db.tx(() => idem.release(c));
            if (!(e instanceof HttpError))
              process.stderr.write(
                `emulator: handler failure on ${method} ${m.template}: ${String((e as Error)?.stack ?? e)}\n`,
              );
            reply =
              e instanceof HttpError ? errorReply(e) : { status: 500, body: { message: "internal server error" } };
          }
        }
        if (fault?.kind === "error-after") {
          if (c) db.tx(() => idem.release(c));
          reply = { status: fault.status, body: { message: `injected fault: ${fault.status} after commit` } };
        }
        if (fault?.kind === "drop-after") {
          req.socket.destroy();
          return;
        }
        if (fault?.kind === "delay-after") {
          // Committed and stored: a concurrent retry must see the replay, not "in progress".
          if (claim) idem.done(claim);
          claim = undefined;
          await new Promise((r) => setTimeout(r, fault.delayMs));
        }
        send(res, reply);
      } finally {
        if (claim) idem.done(claim);
      }
    }

    const server = createServer({ keepAlive: true }, (req, res) => {
      handle(req, res).catch((e: unknown) => {
        if (e instanceof HttpError) {
          if (!res.headersSent) send(res, errorReply(e));
          return;
        }
        process.stderr.write(`emulator: ${String((e as Error)?.stack ?? e)}\n`);
        if (!res.headersSent) send(res, { status: 500, body: { message: "internal server error" } });
        else res.destroy();
      });
    });
    server.keepAliveTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    idem.sweep();
    const sweeper = setInterval(() => {
      try {
        idem.sweep();
      } catch {
        /* the next sweep retries */
      }
    }, SWEEP_MS);
    sweeper.unref();

    const addr = server.address() as AddressInfo;
    const h = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
    return {
      baseUrl: `http://${h}:${addr.port}`,
      accountId: boot.accountId,
      apiKey: boot.apiKey,
      controlToken,
      close: async () => {
        if (closed) return;
        closed = true;
        clearInterval(sweeper);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        db.close();
      },
    };
  } catch (e) {
    db.close();
    throw e;
  }
}
