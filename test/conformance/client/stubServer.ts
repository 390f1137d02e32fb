// A small loopback HTTP server that speaks just enough of the v2 API (routes, API keys, ping, lists
// with cursors, the idempotency rules) to test the client over real sockets, with fault injection the
// client must survive: 5xx before or after the work, responses dropped after the work was done, slow
// executions (-> the in-progress 409), and its own rate limiter (-> 429 storms).
//
// Kept for the cases the shared emulator (emulator/server.ts) cannot produce; see the tests.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { routeRecord } from "../../fixtures/records";

export type Fault =
  /** Answer with this status (and headers/body) without doing the work. */
  | { mode: "status"; status: number; headers?: Record<string, string>; body?: unknown; match?: Match }
  /** Do the work (and store the idempotent response), then destroy the socket without answering. */
  | { mode: "drop-after"; match?: Match }
  /** Destroy the socket before doing anything. */
  | { mode: "drop-before"; match?: Match }
  /** Do the work but take this long before answering (the key stays in progress meanwhile). */
  | { mode: "slow"; ms: number; match?: Match }
  /** Answer 200 with this body (schema-breaking responses). */
  | { mode: "body"; body: unknown; match?: Match };

export type Match = (req: { method: string; path: string }) => boolean;

export interface StubOptions {
  /** Server-side rate limit (token bucket); 429s when exceeded. */
  rateLimit?: { ratePerSecond: number; burst: number; retryAfter?: "seconds" | "none" | "date" };
  /** Retry-After (seconds) of the in-progress 409. */
  inProgressRetryAfter?: number;
  /** Called for every authenticated request (n counts from 1): a fault to apply to it, if any. */
  chaos?: (n: number, req: { method: string; path: string }) => Fault | undefined;
}

interface Stored {
  status: number;
  body: unknown;
  method: string;
  path: string;
  bodyHash: string;
}

export interface StubServer {
  baseUrl: string;
  apiKey: string;
  accountId: string;
  /** Every request that reached a handler, in order. */
  requests: Array<{ method: string; path: string; idempotencyKey?: string; status: number }>;
  /** Resource records by collection name. */
  records: Map<string, Array<Record<string, unknown>>>;
  inject(...faults: Fault[]): void;
  count(method: string, pathPrefix?: string): number;
  close(): Promise<void>;
}

const NOW = () => new Date().toISOString();

export async function startStub(opts: StubOptions = {}): Promise<StubServer> {
  const apiKey = `stub-sk-${randomUUID().replace(/-/g, "")}${randomUUID().replace(/-/g, "")}`; // 64 chars
  const accountId = randomUUID();
  const faults: Fault[] = [];
  const records = new Map<string, Array<Record<string, unknown>>>();
  const idem = new Map<string, Stored | "in-progress">();
  const requests: StubServer["requests"] = [];
  const prefix = `/v2/accounts/${accountId}`;
  let chaosCount = 0;

  // server-side token bucket
  const rl = opts.rateLimit;
  let tokens = rl?.burst ?? 0;
  let last = Date.now();
  const allow = (): boolean => {
    if (!rl) return true;
    const now = Date.now();
    tokens = Math.min(rl.burst, tokens + ((now - last) / 1000) * rl.ratePerSecond);
    last = now;
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    return false;
  };

  const takeFault = (method: string, path: string): Fault | undefined => {
    const i = faults.findIndex((f) => !f.match || f.match({ method, path }));
    return i === -1 ? undefined : faults.splice(i, 1)[0];
  };

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = body === undefined ? "" : JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };

  const collectionOf = (path: string): { name: string; id?: string } | undefined => {
    const m = /^\/v2\/accounts\/[^/]+\/(routes|api-keys)(?:\/([^/]+))?$/.exec(path);
    return m ? { name: m[1]!, id: m[2] } : undefined;
  };

  function create(name: string, body: Record<string, unknown>): { status: number; body: unknown } {
    const list = records.get(name) ?? [];
    records.set(name, list);
    const base = { id: randomUUID(), created_at: NOW(), updated_at: NOW() };
    if (name === "routes") {
      const rec = routeRecord({ ...base, name: body.name, url: body.url, recipient: body.recipient ?? "" });
      list.push(rec);
      return { status: 201, body: { ...rec, secret: `whsec_${randomUUID()}` } };
    }
    const rec = {
      object: "api_key",
      ...base,
      last_used_at: null,
      account_id: accountId,
      label: body.label,
      public_key: `pk_${randomUUID().slice(0, 8)}`,
      scopes: body.scopes,
      ip_allow_list: [],
    };
    list.push(rec);
    return {
      status: 201,
      body: { ...rec, secret_key: `stub-sk-${randomUUID().replace(/-/g, "")}${randomUUID().replace(/-/g, "")}` },
    };
  }

  function listPage(name: string, url: URL): unknown {
    const all = records.get(name) ?? [];
    const limit = Number(url.searchParams.get("limit") ?? "100");
    const after = url.searchParams.get("after");
    const start = after ? all.findIndex((r) => r.id === Buffer.from(after, "base64url").toString()) + 1 : 0;
    const data = all.slice(start, start + limit);
    const has_more = start + limit < all.length;
    const lastItem = data[data.length - 1];
    return {
      object: "list",
      data,
      pagination: {
        has_more,
        next_cursor: has_more && lastItem ? Buffer.from(String(lastItem.id)).toString("base64url") : null,
      },
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, rawBody: string): Promise<void> {
    const url = new URL(req.url ?? "/", "http://stub");
    const method = req.method ?? "GET";
    const path = url.pathname;
    const key = req.headers["idempotency-key"] as string | undefined;
    const record = (status: number) => requests.push({ method, path, idempotencyKey: key, status });

    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      record(401);
      return json(res, 401, { message: "Invalid API key" });
    }
    if (!allow()) {
      record(429);
      const h: Record<string, string> = {};
      if (rl?.retryAfter === "seconds" || rl?.retryAfter === undefined) h["retry-after"] = "1";
      if (rl?.retryAfter === "date") h["retry-after"] = new Date(Date.now() + 1000).toUTCString();
      return json(res, 429, { message: "Too many requests, rate limited." }, h);
    }
    const fault = takeFault(method, path) ?? opts.chaos?.(++chaosCount, { method, path });
    if (fault?.mode === "drop-before") {
      record(0);
      req.socket.destroy();
      return;
    }
    if (fault?.mode === "status") {
      record(fault.status);
      return json(res, fault.status, fault.body ?? { message: `injected ${fault.status}` }, fault.headers);
    }
    if (fault?.mode === "body") {
      record(200);
      return json(res, 200, fault.body);
    }

    if (path === "/v2/ping") {
      record(200);
      return json(res, 200, { message: "pong" });
    }
    if (!path.startsWith(prefix)) {
      record(404);
      return json(res, 404, { message: "account not found" });
    }
    const coll = collectionOf(path);
    if (!coll) {
      record(404);
      return json(res, 404, { message: "not found" });
    }

    if (method === "POST" && !coll.id) {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(rawBody) as Record<string, unknown>;
      } catch {
        record(400);
        return json(res, 400, { message: "invalid JSON" });
      }
      if (typeof body.name !== "string" && typeof body.label !== "string") {
        record(400);
        return json(res, 400, { message: "name is required" });
      }
      if (key) {
        const hash = `${method} ${path} ${rawBody}`;
        const stored = idem.get(key);
        if (stored === "in-progress") {
          record(409);
          return json(
            res,
            409,
            { message: "a request with this idempotency key is in progress" },
            {
              "idempotent-replayed": "false",
              "retry-after": String(opts.inProgressRetryAfter ?? 1),
            },
          );
        }
        if (stored) {
          if (stored.bodyHash !== hash) {
            record(422);
            return json(res, 422, { message: "idempotency key already used with a different payload" });
          }
          record(stored.status);
          if (fault?.mode === "drop-after") {
            req.socket.destroy(); // a replay can be lost on the wire too
            return;
          }
          return json(res, stored.status, stored.body, { "idempotent-replayed": "true" });
        }
        idem.set(key, "in-progress");
        const out = create(coll.name, body);
        if (fault?.mode === "slow") await new Promise((r) => setTimeout(r, fault.ms));
        idem.set(key, { ...out, method, path, bodyHash: hash });
        record(out.status);
        if (fault?.mode === "drop-after") {
          req.socket.destroy();
          return;
        }
        if (res.destroyed || req.socket.destroyed) return;
        return json(res, out.status, out.body);
      }
      const out = create(coll.name, body);
      record(out.status);
      if (fault?.mode === "drop-after") {
        req.socket.destroy();
        return;
      }
      return json(res, out.status, out.body);
    }

    if (method === "GET" && !coll.id) {
      record(200);
      return json(res, 200, listPage(coll.name, url));
    }
    const list = records.get(coll.name) ?? [];
    const idx = list.findIndex((r) => r.id === coll.id);
    if (idx === -1) {
      record(404);
      return json(res, 404, { message: `${coll.name === "routes" ? "route" : "api key"} not found` });
    }
    if (method === "GET") {
      record(200);
      return json(res, 200, list[idx]);
    }
    if (method === "DELETE") {
      list.splice(idx, 1);
      record(200);
      if (fault?.mode === "drop-after") {
        req.socket.destroy();
        return;
      }
      return json(res, 200, { message: "Operation completed successfully" });
    }
    record(405);
    return json(res, 405, { message: "method not allowed" });
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      handle(req, res, Buffer.concat(chunks).toString("utf8")).catch((err: unknown) => {
        if (!res.headersSent) json(res, 500, { message: String(err) });
      });
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    accountId,
    requests,
    records,
    inject: (...f) => faults.push(...f),
    count: (m, p) => requests.filter((r) => r.method === m && (!p || r.path.startsWith(p))).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
