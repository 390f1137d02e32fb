// A real authoritative DNS server for tests: PowerDNS Authoritative Server 4.7.3 (Debian bookworm's
// packages, unpacked by `scripts/setup.sh --with dns` into .tools/pdns, never installed), with its
// SQLite backend in a temp dir, serving DNS over UDP and TCP and its HTTP API on 127.0.0.1 only.
// The API (zones and rrsets) plays the part of a user's DNS provider; the DNS port is what the
// emulator resolves through (`txmail-emulator --dns-server`). close() stops it and removes the dir:
// nothing is left behind.
//
// Every cache of the server is off (packet cache, query cache, zone cache), so what the API changed
// is what the very next query sees: a test that publishes a record and checks it at once must not
// depend on a cache expiring. (PowerDNS purges its caches when a record changes through the API, but
// not when a zone is created: a REFUSED answered before would be served on.) Record TTLs default to
// 1 s, the SOA minimum (negative TTL) is 1 s.
//
// As root, PowerDNS drops to `nobody` itself (its setuid/setgid settings) once it has bound its
// sockets and loaded its modules — before it opens the database, which `nobody` owns. Its
// binaries stay where setup put them (they are exec'd and loaded while still root). Nothing is
// created on the machine (no user, no system service) and nothing listens beyond loopback.
import { freePort } from "./ports";
import { txtStrings } from "../provider/dns/txt";
import { endWithThisProcess } from "./processes";
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promises as dnsPromises } from "node:dns";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { TOOLS_DIR } from "./root";

export interface DnsServer {
  /** "127.0.0.1:PORT": where DNS is served, over UDP and TCP (the emulator's --dns-server). */
  address: string;
  /** PowerDNS's HTTP API base, e.g. http://127.0.0.1:PORT/api/v1/servers/localhost */
  apiUrl: string;
  /** The API key (header X-API-Key). */
  apiKey: string;
  /** The server's temp directory (configuration, database, control socket); close() removes it. */
  dir: string;
  /** Creates a native zone (e.g. "example.com") with SOA and NS records; idempotent. */
  createZone(zone: string): Promise<void>;
  /**
   * Replaces the rrset of (name, type) with these values. CNAME targets get their trailing dot;
   * TXT values are raw text, quoted here and split into strings of at most 255 bytes (as a DKIM
   * key's record must be). The zone is the longest zone on the server that contains name.
   */
  setRecord(name: string, type: "CNAME" | "TXT", values: string[], ttl?: number): Promise<void>;
  /** Deletes the rrset of (name, type). */
  deleteRecord(name: string, type: "CNAME" | "TXT"): Promise<void>;
  close(): Promise<void>;
}

/** PowerDNS's record content for one raw TXT value: quoted strings of at most 255 bytes each. */
export const txtContent = txtStrings;

/** How often a write answered with a 5xx is tried. */
const WRITE_TRIES = 5;
const UNPRIVILEGED = 65534;
const READY_MS = 30_000;
const STOP_MS = 10_000;

function pdnsDir(): string {
  const dir = path.join(TOOLS_DIR, "pdns");
  if (!fs.existsSync(path.join(dir, ".complete"))) {
    throw new Error(`no PowerDNS in ${dir}: run 'bash scripts/setup.sh --with dns' (the test command does)`);
  }
  return dir;
}

/** The FQDN PowerDNS's API names rrsets and zones by: with its trailing dot. */
function fqdn(name: string): string {
  return name.endsWith(".") ? name : `${name}.`;
}

export async function startDnsServer(): Promise<DnsServer> {
  const pdns = pdnsDir();
  // A port taken between freePort() and the server's bind (UDP and TCP must both be free) makes
  // it exit at once: try again with new ports, a bounded number of times.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(pdns);
    } catch (e) {
      lastError = e;
      if (!(e instanceof BindError)) throw e;
    }
  }
  throw lastError;
}

class BindError extends Error {}

async function startOnce(pdns: string): Promise<DnsServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-pdns-"));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  let child: ChildProcess | undefined;
  try {
    const database = path.join(dir, "zones.sqlite3");
    const schema = fs.readFileSync(
      path.join(pdns, "root", "usr", "share", "pdns-backend-sqlite3", "schema", "schema.sqlite3.sql"),
      "utf8",
    );
    const db = new DatabaseSync(database);
    db.exec(schema);
    db.close();
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      // SQLite writes its journal beside the database: the directory too belongs to the server's user.
      fs.chownSync(dir, UNPRIVILEGED, UNPRIVILEGED);
      fs.chownSync(database, UNPRIVILEGED, UNPRIVILEGED);
    }
    const dnsPort = await freePort();
    const apiPort = await freePort();
    const apiKey = randomBytes(16).toString("hex");
    const settings = [
      "launch=gsqlite3",
      `gsqlite3-database=${database}`,
      "local-address=127.0.0.1",
      `local-port=${dnsPort}`,
      "api=yes",
      `api-key=${apiKey}`,
      "webserver=yes",
      "webserver-address=127.0.0.1",
      `webserver-port=${apiPort}`,
      "webserver-allow-from=127.0.0.1",
      `socket-dir=${dir}`,
      "guardian=no",
      "daemon=no",
      "disable-syslog=yes",
      "write-pid=no",
      // Off: a changed record must be visible to the next query (see the top of this file).
      "cache-ttl=0",
      "query-cache-ttl=0",
      "negquery-cache-ttl=0",
      "zone-cache-refresh-interval=0",
      // Off: it would query secpoll.powerdns.com through the system resolver (off loopback).
      "security-poll-suffix=",
      // New zones' SOA: its last field (the negative-answer TTL) low, like the records' TTLs.
      "default-soa-content=ns1.@ hostmaster.@ 0 10800 3600 604800 1",
      "default-ttl=1",
      "loglevel=4",
      ...(asRoot ? [`setuid=${UNPRIVILEGED}`, `setgid=${UNPRIVILEGED}`] : []),
    ];
    // The file holds the API key: only the server's user reads it (config-dir also keeps PowerDNS
    // away from /etc/powerdns).
    const conf = path.join(dir, "pdns.conf");
    fs.writeFileSync(conf, `${settings.join("\n")}\n`, { mode: 0o600 });
    child = spawn(path.join(pdns, "bin", "pdns_server"), [`--config-dir=${dir}`], {
      cwd: dir,
      // Its own process group, so close() stops whatever it started with it.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const forget = endWithThisProcess(child.pid!);
    child.once("exit", forget);
    let log = "";
    const keep = (s: string) => (log = (log + s).slice(-20_000));
    child.stdout!.setEncoding("utf8").on("data", keep);
    child.stderr!.setEncoding("utf8").on("data", keep);
    const address = `127.0.0.1:${dnsPort}`;
    const apiUrl = `http://127.0.0.1:${apiPort}/api/v1/servers/localhost`;
    await waitReady(child, address, apiUrl, apiKey, () => log);
    return server(child, dir, address, apiUrl, apiKey);
  } catch (e) {
    if (child) await stop(child);
    remove();
    throw e;
  }
}

/** Polls (bounded) until both the API and the DNS port answer; fails early if the server exits. */
async function waitReady(
  child: ChildProcess,
  address: string,
  apiUrl: string,
  apiKey: string,
  log: () => string,
): Promise<void> {
  let exited: string | undefined;
  child.once("exit", (code, signal) => (exited = String(signal ?? code)));
  const deadline = Date.now() + READY_MS;
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      const message = `pdns_server exited (${exited}) before it was ready:\n${log()}`;
      throw /Unable to bind|Address already in use/i.test(log()) ? new BindError(message) : new Error(message);
    }
    if ((await apiAnswers(apiUrl, apiKey)) && (await dnsAnswers(address))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`pdns_server not ready in ${READY_MS} ms:\n${log()}`);
}

async function apiAnswers(apiUrl: string, apiKey: string): Promise<boolean> {
  try {
    const res = await fetch(apiUrl, { headers: { "X-API-Key": apiKey }, signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

/** True once the server answers a query at all (REFUSED for a zone it does not have counts). */
async function dnsAnswers(address: string): Promise<boolean> {
  const resolver = new dnsPromises.Resolver({ timeout: 500, tries: 1 });
  resolver.setServers([address]);
  try {
    await resolver.resolveSoa("readiness.invalid");
    return true;
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === dnsPromises.NOTFOUND || code === dnsPromises.NODATA || code === dnsPromises.REFUSED;
  }
}

function server(child: ChildProcess, dir: string, address: string, apiUrl: string, apiKey: string): DnsServer {
  const api = async (method: string, route: string, body?: unknown): Promise<Response> => {
    const res = await fetch(`${apiUrl}${route}`, {
      method,
      headers: { "X-API-Key": apiKey, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return res;
  };
  const failed = async (what: string, res: Response) =>
    new Error(`PowerDNS API: ${what} answered ${res.status}: ${(await res.text()).slice(0, 500)}`);

  /** The longest zone on the server containing name (zones made through the API by others count too). */
  const zoneOf = async (name: string): Promise<string> => {
    const res = await api("GET", "/zones");
    if (!res.ok) throw await failed("listing zones", res);
    const zones = ((await res.json()) as Array<{ name: string }>).map((z) => z.name.toLowerCase());
    const wanted = fqdn(name).toLowerCase();
    const zone = zones.filter((z) => wanted === z || wanted.endsWith(`.${z}`)).sort((a, b) => b.length - a.length)[0];
    if (!zone) throw new Error(`PowerDNS: no zone contains ${name} (zones: ${zones.join(", ") || "none"})`);
    return zone;
  };
  // Writes go one at a time, and a 5xx is tried again (at most WRITE_TRIES times): PowerDNS's SQLite
  // backend answers 500 to a PATCH that meets another one's transaction (the txmaildns plugin, in
  // another process, does the same: support/dnsProvider/record.ts).
  let writes: Promise<unknown> = Promise.resolve();
  const patch = (name: string, rrset: Record<string, unknown>, what: string): Promise<void> => {
    const turn = writes.then(async () => {
      const zone = await zoneOf(name);
      for (let attempt = 1; ; attempt++) {
        const res = await api("PATCH", `/zones/${encodeURIComponent(zone)}`, { rrsets: [rrset] });
        if (res.ok) return void (await res.arrayBuffer());
        if (res.status < 500 || attempt >= WRITE_TRIES) throw await failed(what, res);
        await res.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    });
    writes = turn.catch(() => undefined);
    return turn;
  };

  let closed: Promise<void> | undefined;
  return {
    address,
    apiUrl,
    apiKey,
    dir,
    createZone: async (zone) => {
      const name = fqdn(zone);
      const res = await api("POST", "/zones", { name, kind: "Native", nameservers: [`ns1.${name}`] });
      // 409: the zone exists already, which is what the caller wants.
      if (!res.ok && res.status !== 409) throw await failed(`creating zone ${zone}`, res);
      await res.arrayBuffer();
    },
    setRecord: async (name, type, values, ttl = 1) => {
      const records = values.map((v) => ({ content: type === "TXT" ? txtContent(v) : fqdn(v), disabled: false }));
      await patch(name, { name: fqdn(name), type, ttl, changetype: "REPLACE", records }, `setting ${type} ${name}`);
    },
    deleteRecord: async (name, type) => {
      await patch(name, { name: fqdn(name), type, changetype: "DELETE" }, `deleting ${type} ${name}`);
    },
    close: () =>
      (closed ??= (async () => {
        await stop(child);
        fs.rmSync(dir, { recursive: true, force: true });
      })()),
  };
}

/** SIGTERM to the server's process group, SIGKILL if it is not gone in STOP_MS. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      child.kill(signal); // the group is gone already; the process itself, if it is not
    }
  };
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => signalGroup("SIGKILL"), STOP_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    signalGroup("SIGTERM");
  });
}
