// `txmaildns:index:Record`: one DNS record set — a (name, type) pair holding one value — kept in a
// PowerDNS Authoritative server through its HTTP API. What the engine calls (check, diff, create,
// read, update, delete) and the PowerDNS client under it; main.ts serves it to the engine.
//
// PowerDNS's API, as used here: `GET {apiUrl}/zones` lists the zones; `GET {apiUrl}/zones/{zone}`
// holds the zone's rrsets; `PATCH {apiUrl}/zones/{zone}` with `changetype: "REPLACE"` sets an
// rrset's records, with `changetype: "DELETE"` removes it. Names are absolute (trailing dot); a
// record's `content` is in zone-file presentation: a CNAME target absolute, TXT text as quoted
// character-strings of at most 255 bytes each (a DKIM key is longer than one).
import { txtStrings, txtText } from "../../provider/dns/txt";
import { isUnknown } from "../../provider/core/unknowns";
import { isSecretValue } from "../../provider/core/secretMarks";

export const RECORD_TYPE = "txmaildns:index:Record";
export const RECORD_TYPES = ["CNAME", "TXT"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
/** The TTL of a record whose program gives none: short, as tests change records. */
export const DEFAULT_TTL = 60;

export type Props = Record<string, unknown>;

/** A record's state: its inputs (ttl defaulted) and `fqdn`, its name as the server holds it. */
export interface RecordState {
  name: string;
  type: RecordType;
  value: string;
  ttl: number;
  fqdn: string;
  [key: string]: unknown;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface DiffAnswer {
  changes: boolean;
  replaces: string[];
  diffs: string[];
  deleteBeforeReplace: boolean;
}

/** Where the DNS server's API is and its key (config, or the environment: see resolveConfig). */
export interface DnsConfig {
  apiUrl?: string;
  apiKey?: string;
}

/** Values as plain data: secrets (a program may mark any input secret) unwrapped, everywhere. */
export function unwrapSecrets(v: unknown): unknown {
  if (isSecretValue(v)) return unwrapSecrets(v.value);
  if (Array.isArray(v)) return v.map(unwrapSecrets);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapSecrets(x)]));
  return v;
}

// --- names and values -------------------------------------------------------------------------

const LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;

/** Why `name` is not a domain name of two labels or more (undefined: it is one); a trailing dot is allowed. */
function badName(name: string): string | undefined {
  const bare = name.endsWith(".") ? name.slice(0, -1) : name;
  if (bare.length === 0 || bare.length > 253) return "must be a domain name of 1 to 253 characters";
  const labels = bare.split(".");
  if (labels.length < 2) return "must be fully qualified (at least two labels, e.g. `host.example.com`)";
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad !== undefined)
    return `has a bad label ${JSON.stringify(bad)}: labels are 1 to 63 letters, digits, '-' or '_', not starting or ending with '-'`;
  return undefined;
}

/** A name as compared and as the server spells it: lower case, no trailing dot. */
export const canonicalName = (name: string) => name.toLowerCase().replace(/\.$/, "");
const absolute = (name: string) => `${canonicalName(name)}.`;

/** A value as compared: a CNAME target is a name (case and trailing dot do not matter); TXT text is exact. */
const canonicalValue = (type: string, value: string) => (type === "CNAME" ? canonicalName(value) : value);

/** TXT text as PowerDNS content, and back (provider/dns/txt.ts). */
export { txtStrings as txtContent, txtText } from "../../provider/dns/txt";

const contentOf = (type: RecordType, value: string) => (type === "TXT" ? txtStrings(value) : absolute(value));
const valueOf = (type: RecordType, content: string) => (type === "TXT" ? txtText(content) : canonicalName(content));

/** The id of a record: its name and type (what `pulumi import` takes too). */
export const recordId = (name: string, type: string) => `${canonicalName(name)}/${type}`;

// --- the engine's calls ------------------------------------------------------------------------

/** Validates a Record's inputs (unknowns, in a preview, are left to the run that knows them); defaults ttl. */
export function check(news: Props): { inputs: Props; failures: CheckFailure[] } {
  const failures: CheckFailure[] = [];
  const fail = (property: string, reason: string) => failures.push({ property, reason });
  const known = (k: string) => news[k] !== undefined && news[k] !== null && !isUnknown(news[k]);
  // An SDK's output named among the args (`fqdn: undefined` / None) arrives as nothing or null;
  // `__`-prefixed keys are the engine's own.
  for (const [k, v] of Object.entries(news))
    if (!["name", "type", "value", "ttl"].includes(k) && !k.startsWith("__") && v !== null && v !== undefined)
      fail(k, `txmaildns:index:Record has no input \`${k}\` (inputs: name, type, value, ttl)`);
  for (const k of ["name", "type", "value"])
    if (news[k] === undefined || news[k] === null) fail(k, `\`${k}\` is required`);
    else if (known(k) && typeof news[k] !== "string")
      fail(k, `\`${k}\` must be a string, not ${JSON.stringify(news[k])}`);
  if (known("name") && typeof news.name === "string") {
    const why = badName(news.name);
    if (why) fail("name", `\`name\` ${JSON.stringify(news.name)} ${why}`);
  }
  if (known("type") && typeof news.type === "string" && !(RECORD_TYPES as readonly string[]).includes(news.type))
    fail("type", `\`type\` must be one of ${RECORD_TYPES.join(", ")}, not ${JSON.stringify(news.type)}`);
  if (known("value") && typeof news.value === "string") {
    if (news.value === "") fail("value", "`value` must not be empty");
    else if (news.type === "CNAME") {
      const why = badName(news.value);
      if (why) fail("value", `\`value\` (a CNAME target) ${JSON.stringify(news.value)} ${why}`);
    }
  }
  if (known("ttl") && !(Number.isInteger(news.ttl) && (news.ttl as number) >= 1 && (news.ttl as number) <= 2 ** 31 - 1))
    fail("ttl", `\`ttl\` must be a whole number of seconds from 1 to 2147483647, not ${JSON.stringify(news.ttl)}`);
  // Nulls dropped (an output named among the args is no input), the ttl defaulted.
  const inputs = Object.fromEntries(Object.entries(news).filter(([, v]) => v !== null && v !== undefined));
  return { inputs: { ttl: DEFAULT_TTL, ...inputs }, failures };
}

/** A new name or type is another record (replaced; delete first when both live at one name); a new value or ttl is an update. */
export function diff(olds: Props, news: Props): DiffAnswer {
  const same = (k: string) => {
    const [a, b] = [olds[k], news[k]];
    if (isUnknown(b)) return false;
    if (k === "name") return typeof a === "string" && typeof b === "string" && canonicalName(a) === canonicalName(b);
    if (k === "value")
      return (
        typeof a === "string" &&
        typeof b === "string" &&
        canonicalValue(String(news.type), a) === canonicalValue(String(news.type), b)
      );
    return a === b;
  };
  const diffs = ["name", "type", "value", "ttl"].filter((k) => !same(k));
  const replaces = diffs.filter((k) => k === "name" || k === "type");
  return {
    changes: diffs.length > 0,
    replaces,
    diffs,
    // A CNAME and a TXT record cannot share a name: the old one goes before the new one comes.
    deleteBeforeReplace: replaces.length > 0 && same("name"),
  };
}

/** Creates the record: its rrset at the server is replaced by this one value. */
export async function create(config: DnsConfig, inputs: Props): Promise<{ id: string; outs: RecordState }> {
  const state = stateOf(inputs);
  await new PowerDns(config).replace(state);
  return { id: recordId(state.name, state.type), outs: state };
}

/** Updates the value or ttl in place (a new name or type is a replacement: diff). */
export async function update(config: DnsConfig, news: Props): Promise<{ outs: RecordState }> {
  const state = stateOf(news);
  await new PowerDns(config).replace(state);
  return { outs: state };
}

/** Deletes the record's rrset; one already gone (or its whole zone) is deleted. */
export async function remove(config: DnsConfig, id: string, props: Props): Promise<void> {
  const { name, type } = identify(id, props);
  await new PowerDns(config).delete(name, type);
}

/**
 * What the server holds now for the record: its value and ttl (the program's spelling kept where
 * the server's means the same), or an empty id when the rrset is gone, so `pulumi refresh` drops
 * it from the stack. Without properties (`pulumi import`), the id names the record.
 */
export async function read(
  config: DnsConfig,
  id: string,
  props: Props | undefined,
): Promise<{ id: string; props?: RecordState; inputs?: Props }> {
  const { name, type } = identify(id, props ?? {});
  const rrset = await new PowerDns(config).get(name, type);
  const records = (rrset?.records ?? []).filter((r) => !r.disabled);
  if (!rrset || records.length === 0) return { id: "" };
  // One value per rrset is what this resource writes; anything added beside it reads as a change.
  const live = records.map((r) => valueOf(type, r.content)).join("\n");
  const was = typeof props?.value === "string" ? props.value : undefined;
  const value = was !== undefined && canonicalValue(type, was) === live ? was : live;
  const state: RecordState = {
    name: typeof props?.name === "string" ? props.name : name,
    type,
    value,
    ttl: rrset.ttl,
    fqdn: canonicalName(name),
  };
  return {
    id: recordId(name, type),
    props: state,
    inputs: { name: state.name, type, value, ttl: state.ttl },
  };
}

function stateOf(inputs: Props): RecordState {
  const name = String(inputs.name);
  return {
    name,
    type: inputs.type as RecordType,
    value: String(inputs.value),
    ttl: typeof inputs.ttl === "number" ? inputs.ttl : DEFAULT_TTL,
    fqdn: canonicalName(name),
  };
}

/** A record's name and type: from its state, else from its id (`<name>/<type>`). */
function identify(id: string, props: Props): { name: string; type: RecordType } {
  if (typeof props.name === "string" && typeof props.type === "string")
    return { name: props.name, type: props.type as RecordType };
  const m = /^([^/]+)\/(CNAME|TXT)$/.exec(id);
  if (!m) throw new Error(`txmaildns: bad record id ${JSON.stringify(id)}: expected <name>/<CNAME|TXT>`);
  return { name: m[1]!, type: m[2] as RecordType };
}

// --- PowerDNS ---------------------------------------------------------------------------------

interface RRset {
  name: string;
  type: string;
  ttl: number;
  records: Array<{ content: string; disabled?: boolean }>;
}

/** Each call is bounded: a stuck server fails the operation (and the test) instead of hanging it. */
const REQUEST_TIMEOUT_MS = 30_000;

/** The config in force: the provider's, else TXMAILDNS_API_URL / TXMAILDNS_API_KEY (test programs set none). */
export function resolveConfig(config: DnsConfig): Required<DnsConfig> {
  const apiUrl = config.apiUrl || process.env.TXMAILDNS_API_URL;
  const apiKey = config.apiKey || process.env.TXMAILDNS_API_KEY;
  if (!apiUrl) throw new Error("txmaildns: no DNS server API: set the config `txmaildns:apiUrl` or TXMAILDNS_API_URL");
  if (!apiKey)
    throw new Error("txmaildns: no DNS server API key: set the config `txmaildns:apiKey` or TXMAILDNS_API_KEY");
  return { apiUrl: apiUrl.replace(/\/+$/, ""), apiKey };
}

/** How often a write answered with a 5xx is tried. */
const WRITE_TRIES = 5;
/** The last write of this process: the next one waits for it. */
let writes: Promise<unknown> = Promise.resolve();

class PowerDns {
  private readonly apiUrl: string;
  private readonly apiKey: string;

  constructor(config: DnsConfig) {
    ({ apiUrl: this.apiUrl, apiKey: this.apiKey } = resolveConfig(config));
  }

  /**
   * One API call. Writes go one at a time, and a 5xx is tried again (at most WRITE_TRIES times):
   * PowerDNS's SQLite backend answers 500 to a PATCH that meets another one's transaction, which the
   * engine's parallel creates of one zone's records do.
   */
  private async call(method: "GET" | "PATCH", path: string, body?: unknown): Promise<unknown> {
    if (method === "GET") return this.send(method, path, body);
    const turn = writes.then(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.send(method, path, body);
        } catch (err) {
          const status = (err as { status?: number }).status ?? 0;
          if (status < 500 || attempt >= WRITE_TRIES) throw err;
          await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
        }
      }
    });
    writes = turn.catch(() => undefined);
    return turn;
  }

  /** One HTTP request; an error names the call and PowerDNS's own `error` text (never the key). */
  private async send(method: "GET" | "PATCH", path: string, body?: unknown): Promise<unknown> {
    const url = `${this.apiUrl}${path}`;
    const res = await fetch(url, {
      method,
      headers: { "X-API-Key": this.apiKey, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }).catch((err: unknown) => {
      throw new Error(`txmaildns: ${method} ${url}: ${err instanceof Error ? err.message : String(err)}`);
    });
    const text = await res.text();
    if (!res.ok) {
      let detail = text.slice(0, 500);
      try {
        detail = String((JSON.parse(text) as { error?: unknown }).error ?? detail);
      } catch {
        // not JSON: the text itself
      }
      throw Object.assign(new Error(`txmaildns: ${method} ${url}: HTTP ${res.status}: ${detail}`), {
        status: res.status,
      });
    }
    return text ? JSON.parse(text) : undefined;
  }

  /** The longest zone on the server that holds `name` (its absolute name), or undefined. */
  private async zoneOf(name: string): Promise<string | undefined> {
    const zones = (await this.call("GET", "/zones")) as Array<{ name: string }>;
    const fqdn = absolute(name);
    return zones
      .map((z) => absolute(z.name))
      .filter((z) => fqdn === z || fqdn.endsWith(`.${z}`))
      .sort((a, b) => b.length - a.length)[0];
  }

  private async zoneOrThrow(name: string): Promise<string> {
    const zone = await this.zoneOf(name);
    if (!zone) throw new Error(`txmaildns: no zone on the DNS server at ${this.apiUrl} holds ${canonicalName(name)}`);
    return zone;
  }

  async replace(r: { name: string; type: RecordType; value: string; ttl: number }): Promise<void> {
    const zone = await this.zoneOrThrow(r.name);
    await this.call("PATCH", `/zones/${encodeURIComponent(zone)}`, {
      rrsets: [
        {
          name: absolute(r.name),
          type: r.type,
          ttl: r.ttl,
          changetype: "REPLACE",
          records: [{ content: contentOf(r.type, r.value), disabled: false }],
        },
      ],
    });
  }

  async delete(name: string, type: RecordType): Promise<void> {
    const zone = await this.zoneOf(name);
    if (!zone) return; // the zone is gone, and the record with it
    await this.call("PATCH", `/zones/${encodeURIComponent(zone)}`, {
      rrsets: [{ name: absolute(name), type, changetype: "DELETE" }],
    });
  }

  async get(name: string, type: RecordType): Promise<RRset | undefined> {
    const zone = await this.zoneOf(name);
    if (!zone) return undefined;
    const z = (await this.call("GET", `/zones/${encodeURIComponent(zone)}`)) as { rrsets?: RRset[] };
    return (z.rrsets ?? []).find((s) => absolute(s.name) === absolute(name) && s.type === type);
  }
}
