// Request preparation: everything one logical call sends on every attempt, checked and built once —
// the full path with its query, the headers (the same Idempotency-Key every time), the JSON body —
// and whether the call may be retried at all.
import { stripQuery } from "./errors";
import { registerSecretsIn } from "./redact";
import { retrySafety, type HttpMethod, type RetrySafety } from "./retry";

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export interface PreparedCall {
  method: HttpMethod;
  /** The path without its query: what logs and errors name. */
  path: string;
  /** Base URL path + path + query string. */
  fullPath: string;
  headers: Record<string, string>;
  body: string | undefined;
  idempotent: boolean;
  safety: RetrySafety;
  signal: AbortSignal | undefined;
  /** The scope the operation needs, named in the message of a 403. */
  scope: string | undefined;
}

export interface CallInput {
  query?: Query;
  idempotencyKey?: string;
  signal?: AbortSignal;
  scope?: string;
  body?: unknown;
}

export function prepareCall(
  method: HttpMethod,
  path: string,
  input: CallInput,
  base: { apiKey: string; prefix: string; userAgent: string },
): PreparedCall {
  const key = input.idempotencyKey;
  if (key !== undefined) checkIdempotencyKey(method, key);
  if (!path.startsWith("/")) throw new TypeError("txmail: path must start with '/'");

  let body: string | undefined;
  if (input.body !== undefined) {
    registerSecretsIn(input.body); // e.g. dkim_private_key: must never come back in an error message
    body = JSON.stringify(input.body);
  }
  const headers: Record<string, string> = {
    authorization: `Bearer ${base.apiKey}`,
    accept: "application/json",
    "user-agent": base.userAgent,
  };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (key !== undefined) headers["idempotency-key"] = key;

  const bare = stripQuery(path);
  return {
    method,
    path: bare,
    fullPath: base.prefix + path + queryString(input.query, path.includes("?")),
    headers,
    body,
    idempotent: key !== undefined,
    safety: retrySafety(method, bare, key !== undefined),
    signal: input.signal,
    scope: input.scope,
  };
}

function checkIdempotencyKey(method: HttpMethod, key: string): void {
  if (method !== "POST") throw new TypeError("txmail: Idempotency-Key is only supported on POST");
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new TypeError(`txmail: Idempotency-Key must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`);
  }
}

function queryString(q: Query | undefined, pathHasQuery: boolean): string {
  if (!q) return "";
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null) sp.append(k, String(v));
  const s = sp.toString();
  return s === "" ? "" : `${pathHasQuery ? "&" : "?"}${s}`;
}
