// Typed client of the emulator's control surface (/_emulator/, header X-Emulator-Control) over
// real HTTP. Usage: `const c = controlClient({ baseUrl, controlToken })`.
import type { Domain } from "../provider/api";
import type { DUMP_SECTIONS, ObjectType } from "./store/objects";
import type { CounterSnapshot } from "./counters";
import type { Fault, FaultSpec } from "./faults";
import type { RequestLogEntry, RequestLogSnapshot } from "./requestLog";

export type { CounterSnapshot, Fault, FaultSpec, RequestLogEntry, RequestLogSnapshot };

export interface ClockState {
  now: string;
  nowMs: number;
  offsetMs: number;
}

/** A stored record as the dump shows it (secrets never appear). */
type DumpedRecord = Record<string, unknown> & { id: string; account_id: string };

/** The dump's sections whose records need more said of them than DumpedRecord. */
interface ShapedSections {
  accounts: Array<Record<string, unknown> & { id: string; status: string; parent_account_id: string | null }>;
  api_keys: Array<DumpedRecord & { label: string }>;
  domains: Domain[];
  /** Memberships, with the email and name the records leave out. */
  members: Array<{ user_id: string; account_id: string; role: string; email: string; name: string | null }>;
  messages: Array<Record<string, unknown>>;
}

/** One section per stored type the store's table lists (emulator/store/objects.ts). */
type Sections = {
  [T in ObjectType as NonNullable<(typeof DUMP_SECTIONS)[T]>]: (typeof DUMP_SECTIONS)[T] extends keyof ShapedSections
    ? ShapedSections[(typeof DUMP_SECTIONS)[T]]
    : DumpedRecord[];
};

/** Everything stored, incl. soft-deleted sub accounts (secrets never appear). */
export type StateDump = Sections & {
  parent_account_id: string;
  now: string;
  idempotency: Array<Record<string, unknown>>;
};

export class EmulatorControl {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}/_emulator${path}`, {
      method,
      headers: {
        "x-emulator-control": this.token,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) {
      throw new Error(
        `emulator control ${method} ${path}: ${res.status} ${(json as { message?: string })?.message ?? text}`,
      );
    }
    return json as T;
  }

  /** Adds a fault; it fires `count` times (default 1) on matching requests. */
  injectFault(spec: FaultSpec): Promise<Fault> {
    return this.call("POST", "/faults", spec);
  }
  async faults(): Promise<Fault[]> {
    return (await this.call<{ faults: Fault[] }>("GET", "/faults")).faults;
  }
  async clearFaults(): Promise<void> {
    await this.call("DELETE", "/faults");
  }
  /** Moves the emulator clock forward (drives every lifetime: idempotency, leases, caches, limits). */
  advanceClock(ms: number): Promise<ClockState> {
    return this.call("POST", "/clock/advance", { ms });
  }
  clock(): Promise<ClockState> {
    return this.call("GET", "/clock");
  }
  counters(): Promise<CounterSnapshot> {
    return this.call("GET", "/counters");
  }
  async resetCounters(): Promise<void> {
    await this.call("DELETE", "/counters");
  }
  /** Requests counted for one endpoint (method and path template, e.g. `POST /v2/accounts/{account_id}/api-keys`). */
  async requestCount(endpoint: string): Promise<number> {
    return (await this.counters()).endpoints[endpoint] ?? 0;
  }
  /** Service requests in arrival order (method, path, path template, status sent), bounded. */
  requests(): Promise<RequestLogSnapshot> {
    return this.call("GET", "/requests");
  }
  async clearRequests(): Promise<void> {
    await this.call("DELETE", "/requests");
  }
  /** Flips a domain's DNS state; `apply` (default true) records a DNS check at once. */
  setDomainVerified(
    domain: string,
    verified: boolean,
    opts: { accountId?: string; apply?: boolean } = {},
  ): Promise<Domain> {
    return this.call("POST", "/domains/verification", { domain, verified, ...opts });
  }
  /** Suspends (or reinstates) the parent account: its active sub accounts become parent-suspended. */
  suspendParent(suspended = true, opts: { accountId?: string } = {}): Promise<{ account_id: string; status: string }> {
    return this.call("POST", "/parent/suspension", { suspended, ...opts });
  }
  /**
   * An API key acting for a member (what that person would create in the dashboard), so a test can
   * play a caller that is not the account owner. Returns the secret once.
   */
  memberKey(accountId: string, userId: string, scopes: string[]): Promise<{ id: string; secret_key: string }> {
    return this.call("POST", "/members/key", { accountId, userId, scopes });
  }
  dumpState(opts: { messages?: boolean } = {}): Promise<StateDump> {
    return this.call("GET", `/state${opts.messages ? "?messages=true" : ""}`);
  }
}

export function controlClient(emu: { baseUrl: string; controlToken?: string }): EmulatorControl {
  if (!emu.controlToken) throw new Error("the emulator was started without a control surface (control: true)");
  return new EmulatorControl(emu.baseUrl, emu.controlToken);
}
