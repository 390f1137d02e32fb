// One HTTP exchange: send, read the whole body (bounded), parse JSON. No retries, no validation —
// those are decisions the client makes from what this returns.
import type { Dispatcher } from "undici";
import type { HeaderBag, HttpMethod } from "../retry/retryPolicy";

/** Responses of this API are small; a body beyond this is a misbehaving server or proxy. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface RawResponse {
  status: number;
  headers: HeaderBag;
  /** Raw text of the body ("" when empty). */
  text: string;
  /** Parsed JSON, or `undefined` when the body was empty or not JSON. */
  json: unknown;
  jsonError: boolean;
}

export interface SendArgs {
  dispatcher: Dispatcher;
  origin: string;
  /** Path including query string, already prefixed with the base URL's path. */
  path: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export async function send(a: SendArgs): Promise<RawResponse> {
  const res = await a.dispatcher.request({
    origin: a.origin,
    path: a.path,
    method: a.method,
    headers: a.headers,
    body: a.body,
    signal: a.signal,
  });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) {
        throw Object.assign(new Error(`response body exceeds ${MAX_RESPONSE_BYTES} bytes`), {
          code: "TXMAIL_BODY_TOO_LARGE",
        });
      }
      chunks.push(chunk);
    }
  } catch (err) {
    res.body.destroy();
    throw err;
  }
  const text = Buffer.concat(chunks).toString("utf8");
  let json: unknown = undefined;
  let jsonError = false;
  if (text.trim() !== "") {
    try {
      json = JSON.parse(text);
    } catch {
      jsonError = true;
    }
  }
  return { status: res.statusCode, headers: res.headers as HeaderBag, text, json, jsonError };
}
