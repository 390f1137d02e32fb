// The service emulator: plain HTTP on loopback (the real service is HTTPS-only: docs/contract/conventions.md#emulator). It
// opens the store, bootstraps the parent account, and serves every v2 endpoint through one request
// pipeline (pipeline/handle.ts) — plus, when enabled, the control surface under /_emulator/.
// Authentication, allow-list, scope and rate-limit failures happen before idempotency and are
// never stored (authentication rule 7); validation and other handler 4xx are stored (idempotency rule 5).
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { type AddressInfo, isIP } from "node:net";
import { bootstrap, type Bootstrap } from "./bootstrap";
import { Clock } from "./clock";
import type { Services } from "./context";
import { Counters } from "./counters";
import { Sealer, loadServerSecret } from "./crypto";
import { type DnsSettings, SERVICE_DNS_CACHE_MS } from "./dns";
import { Faults } from "./faults";
import { endpoints } from "./handlers";
import { controlEndpoints } from "./handlers/control";
import { Idempotency } from "./idempotency";
import type { ControlSurface } from "./pipeline/control";
import { endpointTable } from "./pipeline/endpoint";
import { requestListener } from "./pipeline/handle";
import { RateLimiter, type RateSpec } from "./rateLimit";
import { RequestLog } from "./requestLog";
import type { Runtime } from "./runtime";
import { Db } from "./store/db";
import { IdemStore } from "./store/idempotency";
import { Objects } from "./store/objects";
import { Receptions } from "./store/receptions";
import { type Shapes, applyShapes } from "./shapes";
import { type RunningSmtp, type SmtpAddress, startSmtp } from "./smtp/server";

export type { Runtime } from "./runtime";

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
  /** Response shapes: the service contract (default) or the public description's alternatives (shapes.ts). */
  shapes?: Shapes;
  /**
   * "HOST:PORT" of a DNS server: check-dns resolves each record through it (emulator/dns.ts) instead
   * of reading the control surface's flag, and the flag's control endpoint answers 409.
   */
  dnsServer?: string;
  /** check-dns's cache in seconds (the service's is 60, the default); shorter so tests need not wait. */
  dnsCacheSeconds?: number;
  /**
   * SMTP submission (smtp/server.ts) on this port of `host`, 0 for any free one; off when unset.
   * The running emulator reports where it listens as `smtp`.
   */
  smtpPort?: number;
  /** The SMTP session transcript, one line per call (smtp-server's log: AUTH is redacted). */
  smtpLog?: (line: string) => void;
}

export interface RunningEmulator {
  baseUrl: string;
  accountId: string;
  apiKey: string;
  controlToken?: string;
  /** Where SMTP submission listens, when `smtpPort` was given. */
  smtp?: SmtpAddress;
  close(): Promise<void>;
}

const SWEEP_MS = 30_000;

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const db = new Db(opts.dataDir);
  try {
    const { rt, boot } = openRuntime(db, opts);
    const control = controlSurface(opts.control, rt);
    const server = createServer(
      { keepAlive: true },
      requestListener({
        svc: rt.svc,
        rt,
        endpoints: endpointTable(endpoints),
        limiters: {
          general: new RateLimiter(opts.rateLimit ?? { rps: 100, burst: 200 }),
          statistics: new RateLimiter(opts.statisticsRateLimit ?? { rps: 1, burst: 1 }),
        },
        control,
        trustForwardedFor: opts.trustForwardedFor ?? false,
      }),
    );
    applyShapes(server, opts.shapes, (accountId, domain) => rt.svc.objects.byName("domain", accountId, domain)?.id);
    server.keepAliveTimeout = 10_000;
    await listen(server, opts.port ?? 0, opts.host ?? "127.0.0.1");
    let smtp: RunningSmtp | undefined;
    try {
      if (opts.smtpPort !== undefined) {
        smtp = await startSmtp(rt.svc, { port: opts.smtpPort, host: opts.host ?? "127.0.0.1", log: opts.smtpLog });
      }
    } catch (e) {
      server.close();
      throw e;
    }
    const sweeper = startSweeper(rt.idem);
    const addr = server.address() as AddressInfo;
    const h = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
    let closed = false;
    return {
      baseUrl: `http://${h}:${addr.port}`,
      accountId: boot.accountId,
      apiKey: boot.apiKey,
      controlToken: control?.token,
      smtp: smtp && { host: smtp.host, port: smtp.port, url: smtp.url },
      close: async () => {
        if (closed) return;
        closed = true;
        clearInterval(sweeper);
        await smtp?.close();
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

/** The services over the store (clock, sealer, objects), the bootstrap account and the instruments. */
function openRuntime(db: Db, opts: EmulatorOptions): { rt: Runtime; boot: Bootstrap } {
  const offset = Number(db.getMeta("clock_offset_ms") ?? "0");
  const clock = new Clock(offset, (o) => db.setMeta("clock_offset_ms", String(o)));
  const sealer = new Sealer(loadServerSecret(opts.dataDir));
  const objects = new Objects(db);
  const receptions = new Receptions(db);
  const boot = bootstrap({ db, objects, receptions, clock, sealer }, opts);
  const dns = dnsSettings(opts);
  const svc: Services = { db, objects, receptions, clock, sealer, parentAccountId: boot.accountId, dns };
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
  return { rt, boot };
}

function dnsSettings(opts: EmulatorOptions): DnsSettings {
  const seconds = opts.dnsCacheSeconds ?? SERVICE_DNS_CACHE_MS / 1000;
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new Error("dnsCacheSeconds (--dns-cache-seconds) must be a number >= 0");
  if (opts.dnsServer !== undefined && !isHostPort(opts.dnsServer)) {
    throw new Error(
      `dnsServer (--dns-server) must be HOST:PORT with an IP address (127.0.0.1:5353, [::1]:5353), not ${opts.dnsServer}`,
    );
  }
  return { server: opts.dnsServer, cacheMs: seconds * 1000 };
}

/** An IP address and a port, as node's resolver takes a server (no name: it would need DNS itself). */
function isHostPort(s: string): boolean {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|(\d+\.\d+\.\d+\.\d+)):(\d{1,5})$/.exec(s);
  return !!m && isIP(m[1] ?? m[2]!) !== 0 && Number(m[3]) > 0 && Number(m[3]) <= 65535;
}

/** The control surface with its token (a random one for `true`), or undefined when it is off. */
function controlSurface(option: EmulatorOptions["control"], rt: Runtime): ControlSurface | undefined {
  if (option === undefined || option === false) return undefined;
  const token = option === true ? randomBytes(24).toString("base64url") : option.token;
  if (token.length < 8) throw new Error("control token must be at least 8 characters");
  return { token, answer: controlEndpoints(rt) };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** Expired idempotency records go now and every SWEEP_MS after. */
function startSweeper(idem: Idempotency): NodeJS.Timeout {
  idem.sweep();
  const sweeper = setInterval(() => {
    try {
      idem.sweep();
    } catch {
      /* the next sweep retries */
    }
  }, SWEEP_MS);
  sweeper.unref();
  return sweeper;
}
