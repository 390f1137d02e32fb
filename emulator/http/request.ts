// The first stage: method, path, query and the whole (bounded) body of an incoming request.
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { readBody } from "./body";

export interface ParsedRequest {
  method: string;
  /** Without the query string, still percent-encoded. */
  path: string;
  query: URLSearchParams;
  raw: Buffer;
  headers: IncomingHttpHeaders;
}

export async function parseRequest(req: IncomingMessage): Promise<ParsedRequest> {
  const method = req.method ?? "GET";
  const url = req.url ?? "/";
  const qi = url.indexOf("?");
  const path = qi < 0 ? url : url.slice(0, qi);
  const query = new URLSearchParams(qi < 0 ? "" : url.slice(qi + 1));
  const raw = await readBody(req);
  return { method, path, query, raw, headers: req.headers };
}
