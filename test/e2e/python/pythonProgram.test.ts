// The Python SDK (sdk/python, generated from native/schema.json) end to end: test/e2e/python/program.py,
// an inline Automation API program (no Python language host), run with setup's Python against the
// emulator through the txmail plugin on PATH. It declares a Tenant and a key fed by its outputs
// through an explicit provider, and looks the tenant's domain up; the tenant's domain is verified
// in the same up: its required records published with the test-only DNS provider txmaildns
// (support/dnsPlugin.ts) into a real DNS server on loopback (support/dnsServer.ts, the emulator's
// --dns-server), and a DomainVerification that depends on them. Step by step (the program waits
// on stdin after each step's JSON line, so the emulator's counters are read per step): up creates
// the objects and verifies the domain (≤ 2 checks), a preview changes nothing and writes nothing,
// one label change is one in-place update and one write, destroy leaves nothing, at the service
// nor in DNS; no secret is printed or stored in plaintext.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { Resolver } from "node:dns/promises";
import { promisify } from "node:util";
import { controlClient, serviceObjects, type EmulatorControl } from "../../../support/control";
import { dnsPluginEnv, installDnsPlugin } from "../../../support/dnsPlugin";
import { type DnsServer, startDnsServer } from "../../../support/dnsServer";
import { PASSPHRASE, TOOLS_DIR, engineEnv } from "../harness";
import { startService, type TestService } from "../../../support/service";
import { PYTHON, installPythonSdk } from "../sdks/sdks";
import { byKind } from "../../../support/stackState";

const execFileAsync = promisify(execFile);
jest.setTimeout(10 * 60_000);

const PROGRAM = path.join(__dirname, "program.py");
const DOMAIN = "mail.acme.example.com";
/** One step takes seconds; a stuck one fails its test with the engine's output instead of hanging. */
const STEP_TIMEOUT_MS = 3 * 60_000;
const CHECK = "/v2/accounts/{account_id}/domains/{domain}/check-dns";
/** The emulator's check-dns cache, and the provider's interval matched to it (the service's: 60 s). */
const CACHE_SECONDS = 1;

interface StepLine {
  step: string;
  changes: Record<string, number>;
  outputs?: Record<string, unknown>;
}

let server: DnsServer;
let svc: TestService;
let control: EmulatorControl;
let tmp: string;
let programDir: string;
let proc: ChildProcessWithoutNullStreams;
let stdout = "";
let stderr = "";
let exited: Promise<number | null>;
const lines: StepLine[] = [];
let waiting: ((l: StepLine) => void) | undefined;
/** The emulator's own objects (its parent account's key), there before the program ran. */
let baseline: Set<string>;
/** Every secret the stack holds by what it is, read from its state once it exists. */
const secrets: Record<string, string> = {};
/** The names of the secrets a text holds (names only: a failure must not print a secret). */
const leaks = (text: string) => Object.keys(secrets).filter((name) => text.includes(secrets[name]!));

/** The next step's JSON line (the program prints one per step, then waits for a line on stdin). */
function nextStep(): Promise<StepLine> {
  const ready = lines.shift();
  if (ready) return Promise.resolve(ready);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no step line in ${STEP_TIMEOUT_MS} ms:\n${stderr}`)),
      STEP_TIMEOUT_MS,
    );
    waiting = (l) => {
      clearTimeout(timer);
      resolve(l);
    };
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`program exited (${code}) before its next step:\n${stderr}`));
    });
  });
}

/** Lets the program go on to its next step, with the emulator's counters and request log cleared. */
async function proceed(): Promise<void> {
  await control.resetCounters();
  await control.clearRequests();
  proc.stdin.write("\n");
}

/** What the emulator holds of the program's objects, by kind. */
async function objects(): Promise<Record<string, string[]>> {
  return byKind(serviceObjects(await control.dumpState()).filter((o) => !baseline.has(o.id)));
}

/** The step's calls at the emulator: counters and the write requests (method and route template). */
async function calls() {
  const c = await control.counters();
  const log = await control.requests();
  const writes = log.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.template}`);
  return { reads: c.reads, writes: c.writes, writeRequests: writes };
}

/** The check-dns requests for the program's domain since the log was last cleared. */
async function checks() {
  const { requests } = await control.requests();
  return requests.filter((r) => r.template === CHECK && r.path.includes(`/domains/${DOMAIN}/`));
}

/** What the DNS server answers for a CNAME: its targets, or the error's code (ENOTFOUND, ENODATA). */
async function cname(host: string): Promise<string[] | string> {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([server.address]);
  return resolver.resolveCname(host).catch((e: NodeJS.ErrnoException) => e.code ?? String(e));
}

/** `pulumi stack export` of the program's stack, run in its work dir as a user would. */
async function exportState(showSecrets = false): Promise<string> {
  const env = engineEnv(path.join(programDir, "state"), { PULUMI_HOME: path.join(programDir, "home") });
  const args = ["stack", "export", "--stack", "dev", ...(showSecrets ? ["--show-secrets"] : [])];
  const { stdout: out } = await execFileAsync(path.join(TOOLS_DIR, "bin", "pulumi"), args, {
    cwd: path.join(programDir, "work"),
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return out;
}

/** A secret's value in `pulumi stack export --show-secrets`: `{ <sig>: …, plaintext: <its JSON> }`. */
function plaintext(v: unknown): string {
  const text = (v as { plaintext?: unknown } | undefined)?.plaintext;
  if (typeof text !== "string") throw new Error("not a decrypted secret in the exported state");
  return String(JSON.parse(text));
}

/** Every file under dir, as text. */
function allFiles(dir: string): string {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), "utf8"))
    .join("\n");
}

beforeAll(async () => {
  server = await startDnsServer();
  await server.createZone("example.com");
  svc = await startService({ dnsServer: server.address, dnsCacheSeconds: CACHE_SECONDS });
  control = controlClient(svc);
  baseline = new Set(serviceObjects(await control.dumpState()).map((o) => o.id));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-python-"));
  programDir = path.join(tmp, "program");
  // The SDK as a user installs it: its wheel, built and pip-installed (--no-deps: setup's venv holds
  // the pinned `pulumi`) into a directory of this test's, put on PYTHONPATH; the venv stays untouched.
  if (!fs.existsSync(PYTHON))
    throw new Error(`no Python at ${PYTHON}: run 'bash scripts/setup.sh --with python' first`);
  const site = installPythonSdk(tmp);
  // The test's DNS provider, beside the txmail plugin the program installs in its Pulumi home.
  installDnsPlugin(path.join(programDir, "home"));

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("TXMAIL_")) env[k] = v;
  Object.assign(env, {
    PATH: [path.join(TOOLS_DIR, "bin"), env.PATH ?? ""].join(":"),
    PYTHONPATH: site,
    PYTHONUNBUFFERED: "1",
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    TXMAIL_BASE_URL: svc.baseUrl,
    TXMAIL_ACCOUNT_ID: svc.accountId,
    TXMAIL_API_KEY: svc.apiKey,
    TXMAIL_PROGRAM_DIR: programDir,
    TXMAIL_PROGRAM_PAUSE: "1",
    ...dnsPluginEnv(server),
    TXMAIL_DNS_CHECK_INTERVAL_MS: String(CACHE_SECONDS * 1000),
  });
  await control.resetCounters();
  await control.clearRequests();
  proc = spawn(PYTHON, [PROGRAM], { env, cwd: tmp });
  proc.stderr.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
    if (process.env.TXMAIL_E2E_ECHO) process.stderr.write(s);
  });
  exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
  readline.createInterface({ input: proc.stdout }).on("line", (line) => {
    stdout += line + "\n";
    if (!line.startsWith("{")) return;
    const parsed = JSON.parse(line) as StepLine;
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w(parsed);
    } else lines.push(parsed);
  });
});

afterAll(async () => {
  if (proc && proc.exitCode === null) proc.kill();
  await svc?.close();
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("a Python program on the generated SDK (inline Automation API, native plugin)", () => {
  let subAccountId: string;
  let ciKeyId: string;

  it("up creates the tenant's objects, verifies its domain, makes the key fed by its outputs, and exports the look-up", async () => {
    const up = await nextStep();
    const at = await calls();
    const checked = await checks();
    console.log(`up: ${at.reads} reads, ${at.writes} writes`);
    // The stack's secrets, first (the later checks need them): the provider's API key, the two
    // keys' and the route's one-time secrets.
    secrets["the provider's apiKey"] = svc.apiKey;
    const shown = JSON.parse(await exportState(true)) as {
      deployment: { resources: Array<{ urn: string; type: string; outputs?: Record<string, unknown> }> };
    };
    for (const r of shown.deployment.resources) {
      const name = r.urn.split("::").pop()!;
      if (r.type === "txmail:index:SubAccountApiKey") secrets[`${name} secretKey`] = plaintext(r.outputs?.secretKey);
      if (r.type === "txmail:index:Route") secrets[`${name} secret`] = plaintext(r.outputs?.secret);
    }
    expect(Object.keys(secrets).sort()).toEqual([
      "acme-bootstrap secretKey",
      "acme-ci secretKey",
      "acme-route-support secret",
      "the provider's apiKey",
    ]);
    for (const value of Object.values(secrets)) expect(value).toMatch(/^\S{16,}$/);
    expect(up.step).toBe("up");
    // The stack, the explicit provider, the Tenant, its sub account, bootstrap key, domain and
    // route, the domain's two DNS records and its verification, and the CI key.
    expect(up.changes).toEqual({ create: 11 });
    expect(await objects()).toEqual({
      SubAccount: [expect.any(String)],
      SubAccountApiKey: [expect.any(String), expect.any(String)],
      Domain: [expect.any(String)],
      Route: [expect.any(String)],
    });
    const d = await control.dumpState();
    const sub = d.accounts.find((a) => a.parent_account_id !== null && a.status !== "deleted")!;
    subAccountId = sub.id;
    const ci = d.api_keys.find((k) => k.label === "acme ci")!;
    ciKeyId = ci.id;
    expect(ci.account_id).toBe(subAccountId);
    const bootstrap = d.api_keys.find((k) => k.account_id === subAccountId && k.id !== ciKeyId)!;
    expect(bootstrap.ip_allow_list).toEqual(["127.0.0.1/32"]); // canonicalised
    const domain = d.domains.find((x) => x.domain === DOMAIN)!;
    expect(domain.account_id).toBe(subAccountId);
    expect(d.routes.map((r) => [r.account_id, r.name])).toEqual([[subAccountId, "support"]]);
    // The records were published before the verification asked: one check when the first sees
    // them (docs/guide/verifying-a-domain.md), two at most.
    expect(checked.length).toBeGreaterThanOrEqual(1);
    expect(checked.length).toBeLessThanOrEqual(2);
    // One create per object and the checks (the DNS records are written at the DNS server, not
    // the service); two reads: the verification's read of the domain and the look-up.
    expect(at.writeRequests.sort()).toEqual([
      "POST /v2/accounts/{account_id}/domains",
      ...checked.map(() => `POST ${CHECK}`),
      "POST /v2/accounts/{account_id}/routes",
      "POST /v2/accounts/{account_id}/sub-accounts",
      "POST /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/api-keys",
      "POST /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/api-keys",
    ]);
    expect(at.reads).toBe(2);
    // Published, as the domain lists them.
    expect(await cname(`txm1._domainkey.${DOMAIN}`)).toEqual([expect.stringMatching(/\.dkim\./)]);

    expect(up.outputs).toEqual({
      subAccountId,
      ciKeyLabel: "acme ci",
      ciKey: "[secret]",
      supportRouteSecret: "[secret]",
      verified: true,
      // The data function's answer: the emulator's domain record.
      domain: {
        id: domain.id,
        domain: DOMAIN,
        dnsRecords: domain.dns_records.map((r) => ({ type: r.type, host: r.host })),
      },
    });
    expect(domain.dns_records.length).toBeGreaterThan(0);
  });

  it("a preview after up changes nothing and makes no write call", async () => {
    await proceed();
    const preview = await nextStep();
    const at = await calls();
    console.log(`preview: ${at.reads} reads, ${at.writes} writes`);
    expect(preview.step).toBe("preview");
    expect(preview.changes).toEqual({ same: 11 });
    expect(at.writes).toBe(0);
    expect(at.reads).toBe(1); // the look-up
  });

  it("a new label for the CI key is one in-place update and one write", async () => {
    await proceed();
    const update = await nextStep();
    const at = await calls();
    console.log(`update: ${at.reads} reads, ${at.writes} writes (${at.writeRequests.join(", ")})`);
    expect(update.step).toBe("update");
    expect(update.changes).toEqual({ update: 1, same: 10 });
    expect(at.writeRequests).toEqual(["PUT /v2/accounts/{account_id}/sub-accounts/{sub_account_id}/api-keys/{key_id}"]);
    const d = await control.dumpState();
    // The same key, relabelled: not replaced.
    expect(d.api_keys.find((k) => k.id === ciKeyId)?.label).toBe("acme ci (deploys)");
    expect(update.outputs).toMatchObject({
      subAccountId,
      ciKeyLabel: "acme ci (deploys)",
      ciKey: "[secret]",
      verified: true,
    });
  });

  it("keeps every secret encrypted in state and out of its files", async () => {
    const exported = await exportState();
    expect(exported).toContain('"ciphertext"');
    expect(leaks(exported)).toEqual([]);
    // Nothing the program wrote (state, stack config, its PULUMI_HOME) holds one in plaintext.
    expect(leaks(allFiles(programDir))).toEqual([]);
  });

  it("destroy leaves none of the program's objects", async () => {
    await proceed();
    const destroyed = await nextStep();
    const at = await calls();
    console.log(`destroy: ${at.reads} reads, ${at.writes} writes`);
    expect(destroyed.step).toBe("destroy");
    expect(destroyed.changes).toEqual({ delete: 11 });
    expect(at.writes).toBe(5);
    expect(at.writeRequests.every((w) => w.startsWith("DELETE "))).toBe(true);
    expect(await objects()).toEqual({});
    // The records are gone from DNS too (the zone stays: the name does not exist).
    expect(await cname(`txm1._domainkey.${DOMAIN}`)).toBe("ENOTFOUND");
    expect(await cname(`rp.${DOMAIN}`)).toBe("ENOTFOUND");
    expect(await exited).toBe(0);
  });

  it("prints no secret: not on stdout (the step lines), not in the engine's output", () => {
    expect(Object.keys(secrets)).toHaveLength(4);
    expect(stdout.trim().split("\n")).toHaveLength(4);
    expect({ stdout: leaks(stdout), stderr: leaks(stderr) }).toEqual({ stdout: [], stderr: [] });
  });
});
