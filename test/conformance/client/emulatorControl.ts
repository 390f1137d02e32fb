// A minimal client for the emulator's control surface (/_emulator/*, X-Emulator-Control token):
// fault injection and request counters, as the client's conformance tests need them.
import { join } from "node:path";

export interface Emulator {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  controlToken?: string;
  close(): Promise<void>;
}

export interface EmulatorStartOptions {
  port: number;
  control?: boolean;
  rateLimit?: { rps: number; burst: number };
}

export type FaultKind = "error-before" | "error-after" | "drop-before" | "drop-after" | "delay" | "rate-limit";

export interface FaultSpec {
  method: string;
  /** Route template (`/v2/accounts/{account_id}/api-keys`), exact path or glob with `*`. */
  path: string;
  kind: FaultKind;
  count?: number;
  status?: number;
  delayMs?: number;
  retryAfter?: number | null;
}

export interface Counters {
  reads: number;
  writes: number;
  total: number;
  endpoints: Record<string, number>;
}

export const EMULATOR_SERVER = join(__dirname, "../../../emulator/server.ts");

/** The emulator in-process (required lazily so a unit run does not load SQLite). */
export async function startEmulator(opts: EmulatorStartOptions): Promise<Emulator> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(EMULATOR_SERVER) as { startEmulator: (o: EmulatorStartOptions) => Promise<Emulator> };
  return mod.startEmulator(opts);
}

export function control(emu: Emulator) {
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${emu.baseUrl}/_emulator/${path}`, {
      method,
      headers: { "x-emulator-control": emu.controlToken ?? "", "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await res.json();
    if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    fault: (f: FaultSpec) => call("POST", "faults", f),
    clearFaults: () => call("DELETE", "faults"),
    counters: async () => (await call("GET", "counters")) as Counters,
    resetCounters: () => call("DELETE", "counters"),
    /** Requests counted for one endpoint, e.g. `POST /v2/accounts/{account_id}/api-keys`. */
    count: async (endpoint: string) => ((await call("GET", "counters")) as Counters).endpoints[endpoint] ?? 0,
  };
}
