// Connection pools, one per base URL (and timeout settings) per process, created on first use.
//
// Why module-level and lazy: a Pulumi dynamic provider object is serialized into state, so it must not
// hold sockets or agents; and every resource operation builds a fresh client. Keeping the pool here
// lets all those clients reuse the same keep-alive connections instead of paying a TLS handshake per
// request. Nothing here holds a credential.
import type { Dispatcher } from "undici";

export interface Timeouts {
  /** TCP + TLS connect. */
  connectMs: number;
  /** From request sent to response headers received. */
  headersMs: number;
  /** Maximum gap between body chunks. */
  bodyMs: number;
  /** Idle keep-alive sockets are closed after this (the server's Keep-Alive hint may shorten it). */
  keepAliveMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000, keepAliveMs: 30_000 };

/** Parallel sockets per origin: well above Pulumi's default parallelism, well below any server limit. */
const CONNECTIONS_PER_ORIGIN = 32;

const pools = new Map<string, Dispatcher>();

export function sharedDispatcher(origin: string, t: Timeouts): Dispatcher {
  const key = `${origin}|${t.connectMs}|${t.headersMs}|${t.bodyMs}|${t.keepAliveMs}`;
  let d = pools.get(key);
  if (!d) {
    // require at first use, not at module load: keeps the module cheap to serialize/load and lets the
    // provider process resolve undici from the program's node_modules.

    const { Pool } = require("undici") as typeof import("undici");
    d = new Pool(origin, {
      connections: CONNECTIONS_PER_ORIGIN,
      pipelining: 1, // keep-alive reuse without HTTP pipelining (a dropped socket then loses one request)
      connect: { timeout: t.connectMs },
      headersTimeout: t.headersMs,
      bodyTimeout: t.bodyMs,
      keepAliveTimeout: t.keepAliveMs,
      keepAliveMaxTimeout: Math.max(t.keepAliveMs, 60_000),
    });
    pools.set(key, d);
  }
  return d;
}

/** Closes every pool (tests and benchmarks call this so the process can exit promptly). */
export async function closeSharedDispatchers(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((d) => d.close().catch(() => undefined)));
}
