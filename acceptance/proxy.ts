// A recording reverse proxy on loopback: the engine's providers are pointed at it, and it forwards
// every request to the configured base URL unchanged. It keeps what the contract report needs of each
// exchange — never a request body, and the response body only in memory, for the report's analysis —
// so the provider is observed without being changed.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Exchange {
  method: string;
  /** The path the provider asked for, without the query. */
  path: string;
  /** The query's parameter names (values may be addresses). */
  queryKeys: string[];
  status: number;
  ms: number;
  /** Response headers about rate limits (`ratelimit-*`, `x-ratelimit-*`, `retry-after`). */
  rateHeaders: Record<string, string>;
  /** The response body as JSON, when it was JSON. */
  json?: unknown;
  /** Set when the exchange failed at the transport (no answer). */
  transportError?: string;
}

export interface RecordingProxy {
  /** What to configure as the provider's base URL. */
  url: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length"]);
const RATE_HEADER = /^(x-)?ratelimit|^retry-after$/i;

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Forwards one request to `base` (origin and path prefix), answers with what came back, records it. */
async function forward(base: URL, exchanges: Exchange[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const prefix = base.pathname.replace(/\/+$/, "");
  const url = new URL(req.url ?? "/", "http://proxy");
  const body = await readAll(req);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  const started = performance.now();
  const entry: Exchange = {
    method: req.method ?? "GET",
    path: url.pathname,
    queryKeys: [...new Set(url.searchParams.keys())],
    status: 0,
    ms: 0,
    rateHeaders: {},
  };
  exchanges.push(entry);
  let answer: Response;
  try {
    answer = await fetch(`${base.origin}${prefix}${url.pathname}${url.search}`, {
      method: entry.method,
      headers,
      body: body.length > 0 ? body : undefined,
      redirect: "manual",
    });
  } catch (e) {
    entry.ms = performance.now() - started;
    entry.transportError = (e as Error).message;
    res.socket?.destroy();
    return;
  }
  const text = Buffer.from(await answer.arrayBuffer());
  entry.ms = performance.now() - started;
  entry.status = answer.status;
  const out: Record<string, string> = {};
  answer.headers.forEach((v, k) => {
    if (RATE_HEADER.test(k)) entry.rateHeaders[k] = v;
    if (!HOP_BY_HOP.has(k) && k !== "content-encoding") out[k] = v;
  });
  try {
    entry.json = text.length > 0 ? JSON.parse(text.toString("utf8")) : undefined;
  } catch {
    // not JSON: the report counts it as a parse failure of a 2xx
  }
  out["content-length"] = String(text.length);
  res.writeHead(answer.status, out);
  res.end(text);
}

export async function startProxy(target: string): Promise<RecordingProxy> {
  const base = new URL(target);
  const exchanges: Exchange[] = [];
  const server = createServer({ keepAlive: true }, (req, res) => {
    forward(base, exchanges, req, res).catch(() => res.socket?.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
