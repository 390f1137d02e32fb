// A Go program using the generated Go SDK (sdk/go/txmail), end to end against the emulator:
// test/e2e/go/main.go drives one stack through the Automation API with an inline program (no Go
// language host: the CLI talks to the program's own process), on a file backend with the
// passphrase secrets provider, and no Node anywhere: the program's and the engine's PATH is only the
// CLI (support/plugin.ts nodeFreeTools), and the txmail plugin is its single executable, installed in
// the program's Pulumi home as `pulumi plugin install` would (beside it the test-only DNS provider
// txmaildns, support/dnsPlugin.ts, whose launcher runs Node by absolute path: the stand-in for the
// user's DNS provider, not part of what a Go user runs). It declares a Tenant (domain, bootstrap
// key, a route) through an explicit provider, its domain's required records published with that
// DNS provider into a real DNS server on loopback (support/dnsServer.ts, the emulator's
// --dns-server) and a DomainVerification depending on them, a plain key fed by the tenant's outputs
// through the default provider, and a data function call whose result it exports.
// Up creates the objects and verifies the domain (≤ 2 checks); a preview is a no-op that writes
// nothing; relabelling the key is one in-place update and one write; secrets stay ciphertext in
// state and out of every output; destroy leaves nothing, at the service nor in DNS. The program is
// built once (`go build -mod=readonly`) into a temp dir.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFile } from "node:child_process";
import { Resolver } from "node:dns/promises";
import { promisify } from "node:util";
import { controlClient, serviceObjects } from "../../../support/control";
import { dnsPluginEnv, installDnsPlugin } from "../../../support/dnsPlugin";
import { type DnsServer, startDnsServer } from "../../../support/dnsServer";
import { PASSPHRASE, REPO_ROOT, TOOLS_DIR } from "../harness";
import { installCheckoutPlugin, nodeFreeTools, resolvable } from "../../../support/plugin";
import { startService, type TestService } from "../../../support/service";
import { byKind } from "../../../support/stackState";

const execFileAsync = promisify(execFile);

// The first, cold compile of the SDK and the Automation API takes minutes on 2 cores.
jest.setTimeout(20 * 60_000);

const programDir = path.join(REPO_ROOT, "test", "e2e", "go");
const DOMAIN = "mail.gopher.example.com";
const CHECK = "/v2/accounts/{account_id}/domains/{domain}/check-dns";
/** The emulator's check-dns cache, and the provider's interval matched to it (the service's: 60 s). */
const CACHE_SECONDS = 1;
let server: DnsServer;
let svc: TestService;
let dir: string;
let bin: string;
/** The emulator's own objects (its parent account's key), there before the program ran. */
let baseline: Set<string>;
/** Everything the program and the engine printed, for the secret scans. */
let printed = "";
let destroyed = false;

interface StepLine {
  step: string;
  changes: Record<string, number>;
  outputs?: Record<string, unknown>;
}

/** The environment every step runs with: the project's CLI alone on PATH (no node), offline. */
function stepEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: path.join(nodeFreeTools(), "bin"),
    TXMAIL_GO_STATE_DIR: dir,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_HOME: path.join(dir, "home"),
    TXMAIL_BASE_URL: svc.baseUrl,
    TXMAIL_ACCOUNT_ID: svc.accountId,
    TXMAIL_API_KEY: svc.apiKey,
    ...dnsPluginEnv(server),
    TXMAIL_DNS_CHECK_INTERVAL_MS: String(CACHE_SECONDS * 1000),
  };
}

/** Runs one step of the Go program; its JSON line (the last line of stdout). */
async function step(name: "up" | "preview" | "change" | "destroy"): Promise<StepLine> {
  try {
    const { stdout, stderr } = await execFileAsync(bin, [name], {
      env: stepEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
    printed += stdout + stderr;
    if (process.env.TXMAIL_E2E_ECHO) process.stderr.write(stdout + stderr);
    const lines = stdout.trim().split("\n");
    return JSON.parse(lines[lines.length - 1]!) as StepLine;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    printed += (e.stdout ?? "") + (e.stderr ?? "");
    throw new Error(`txmail-go ${name} failed:\n${e.stdout ?? ""}\n${e.stderr ?? ""}`, { cause: err });
  }
}

/** `pulumi stack export` of the program's stack, from its file backend (never printed). */
async function exportState(showSecrets = false): Promise<string> {
  const args = ["stack", "export", "--stack", "dev"];
  if (showSecrets) args.push("--show-secrets");
  const { stdout } = await execFileAsync(path.join(TOOLS_DIR, "bin", "pulumi"), args, {
    cwd: path.join(dir, "work"),
    env: { ...stepEnv(), PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}` },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

interface Exported {
  deployment: {
    resources?: Array<{
      urn: string;
      type: string;
      id?: string;
      provider?: string;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
    }>;
  };
}

const secretShape = {
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  ciphertext: expect.any(String),
};

/** Every live service object the program made, by kind. */
async function objects(): Promise<Record<string, string[]>> {
  return byKind(serviceObjects(await controlClient(svc).dumpState()).filter((o) => !baseline.has(o.id)));
}

/** What the DNS server answers for a CNAME: its targets, or the error's code (ENOTFOUND, ENODATA). */
async function cname(host: string): Promise<string[] | string> {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([server.address]);
  return resolver.resolveCname(host).catch((e: NodeJS.ErrnoException) => e.code ?? String(e));
}

beforeAll(async () => {
  server = await startDnsServer();
  await server.createZone("example.com");
  svc = await startService({ dnsServer: server.address, dnsCacheSeconds: CACHE_SECONDS });
  baseline = new Set(serviceObjects(await controlClient(svc).dumpState()).map((o) => o.id));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-go-"));
  bin = path.join(dir, "txmail-go");
  installCheckoutPlugin(path.join(dir, "home"), "binary");
  installDnsPlugin(path.join(dir, "home"));
  expect(resolvable("node", stepEnv().PATH ?? "")).toEqual([]);
  // One build; Go's build cache makes the next runs' builds fast.
  await execFileAsync("go", ["build", "-mod=readonly", "-ldflags=-w", "-o", bin, "."], {
    cwd: programDir,
    maxBuffer: 64 * 1024 * 1024,
  });
});

afterAll(async () => {
  if (dir && !destroyed) await step("destroy").catch(() => undefined);
  await svc?.close();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("a Go program on the generated SDK (Automation API, inline program)", () => {
  let subAccountId = "";
  let ciKeyId = "";

  it("up creates the tenant's objects, verifies its domain, makes the key fed by its outputs, and exports the data call's answer", async () => {
    const control = controlClient(svc);
    await control.resetCounters();
    await control.clearRequests();
    const up = await step("up");
    const counters = await control.counters();
    // The stack, the explicit provider, the tenant, its sub account, domain, route and bootstrap
    // key, the domain's two DNS records and its verification, and the CI key (the default
    // providers are not counted).
    expect(up.changes).toEqual({ create: 11 });
    // The records were published before the verification asked: one check when the first sees
    // them (docs/guide/verifying-a-domain.md), two at most.
    const { requests: log } = await control.requests();
    const checks = log.filter((r) => r.template === CHECK && r.path.includes(`/domains/${DOMAIN}/`));
    expect(checks.length).toBeGreaterThanOrEqual(1);
    expect(checks.length).toBeLessThanOrEqual(2);
    expect(counters.endpoints[`POST ${CHECK}`]).toBe(checks.length);
    // One write per object (sub account, domain, route, two keys) and the checks; the DNS records
    // are written at the DNS server, not the service. Two reads: the verification's read of the
    // domain (with the tenant's key) and the data call.
    expect(counters.writes).toBe(5 + checks.length);
    expect(counters.reads).toBe(2);
    // Published, as the domain lists them.
    expect(await cname(`txm1._domainkey.${DOMAIN}`)).toEqual([expect.stringMatching(/\.dkim\./)]);

    const d = await control.dumpState();
    const subs = d.accounts.filter((a) => a.parent_account_id !== null && a.status !== "deleted");
    expect(subs.map((a) => [a.name, a.website])).toEqual([["gopher", "gopher.example.com"]]);
    subAccountId = subs[0]!.id;
    expect(d.domains.map((x) => [x.domain, x.account_id])).toEqual([["mail.gopher.example.com", subAccountId]]);
    expect(d.routes.map((x) => [x.name, x.recipient, x.account_id])).toEqual([
      ["support", "support@mail.gopher.example.com", subAccountId],
    ]);
    const keys = d.api_keys.filter((k) => k.account_id === subAccountId);
    expect(keys.map((k) => k.label).sort()).toEqual(["gopher bootstrap", "gopher ci"]);
    const bootstrap = keys.find((k) => k.label === "gopher bootstrap")!;
    expect(bootstrap.ip_allow_list).toEqual(["127.0.0.1/32"]); // as the service stores it
    ciKeyId = keys.find((k) => k.label === "gopher ci")!.id;
    expect(await objects()).toEqual({
      SubAccount: [subAccountId],
      SubAccountApiKey: keys.map((k) => k.id).sort(),
      Domain: [d.domains[0]!.id],
      Route: [d.routes[0]!.id],
    });

    // Outputs: plain ones as they are, secrets masked; the data call answered with the tenant's line.
    expect(up.outputs).toEqual({
      subAccountId,
      dnsRecordCount: expect.any(Number),
      supportRouteSecret: "[secret]",
      ciKeyLabel: "gopher ci",
      ciKeySecret: "[secret]",
      usageCurrency: "usd",
      usageTenantName: "gopher",
      verified: true,
    });
    expect(up.outputs!.dnsRecordCount).toBeGreaterThan(0);
    console.log(`up: ${counters.reads} reads, ${counters.writes} writes`);
  });

  it("a preview is a no-op and writes nothing at the service", async () => {
    const control = controlClient(svc);
    await control.resetCounters();
    const preview = await step("preview");
    const counters = await control.counters();
    expect(preview.changes).toEqual({ same: 11 });
    expect(counters.writes).toBe(0);
    expect(preview.outputs).toMatchObject({
      subAccountId,
      ciKeyLabel: "gopher ci",
      usageTenantName: "gopher",
      verified: true,
    });
    console.log(`preview: ${counters.reads} reads, ${counters.writes} writes`);
  });

  it("relabelling the key is one in-place update: one write, the same key", async () => {
    const control = controlClient(svc);
    await control.resetCounters();
    const change = await step("change");
    const counters = await control.counters();
    expect(change.changes).toEqual({ update: 1, same: 10 });
    const writes = Object.entries(counters.endpoints).filter(([k]) => !/^(GET|HEAD) /.test(k));
    expect(writes).toEqual([[expect.stringMatching(/^(PATCH|PUT) .*api-keys\/\{[a-z_]+\}$/), 1]]);
    expect(counters.writes).toBe(1);
    const d = await control.dumpState();
    const keys = d.api_keys.filter((k) => k.account_id === subAccountId);
    expect(keys.find((k) => k.id === ciKeyId)?.label).toBe("gopher ci, relabelled");
    expect(keys).toHaveLength(2);
    expect(change.outputs).toMatchObject({
      ciKeyLabel: "gopher ci, relabelled",
      ciKeySecret: "[secret]",
      verified: true,
    });
    console.log(`change: ${counters.reads} reads, ${counters.writes} writes`);
  });

  it("secrets are ciphertext in the exported state and appear in no output", async () => {
    const plain = await exportState();
    const revealed = JSON.parse(await exportState(true)) as Exported;
    const resources = revealed.deployment.resources ?? [];
    const keyResources = resources.filter((r) => r.type === "txmail:index:SubAccountApiKey");
    expect(keyResources).toHaveLength(2);
    const secrets = [
      svc.apiKey,
      ...keyResources.map((r) => String(r.outputs?.secretKey ?? "")),
      ...resources.filter((r) => r.type === "txmail:index:Route").map((r) => String(r.outputs?.secret ?? "")),
    ];
    for (const s of secrets) expect(s.length).toBeGreaterThan(10);
    for (const s of secrets) {
      expect(plain).not.toContain(s);
      expect(printed).not.toContain(s);
    }
    // The bootstrap key's secret is there, as ciphertext only.
    const state = JSON.parse(plain) as Exported;
    const bootstrap = (state.deployment.resources ?? []).find(
      (r) => r.type === "txmail:index:SubAccountApiKey" && r.id !== ciKeyId,
    );
    expect(bootstrap?.outputs?.secretKey).toEqual(secretShape);
    // The explicit provider keeps its key as ciphertext too, and serves the tenant's parts; the
    // CI key went through the default provider.
    const all = state.deployment.resources ?? [];
    const explicit = all.find((r) => r.type === "pulumi:providers:txmail" && r.urn.endsWith("::account"));
    expect(explicit?.inputs?.apiKey).toEqual(secretShape);
    const providerOf = (r: { provider?: string }) => (r.provider ?? "").split("::").slice(-2)[0];
    const parts = all.filter((r) => r.type.startsWith("txmail:index:") && !r.urn.endsWith("::gopher-ci"));
    expect(parts.map((r) => r.type.split(":").pop()).sort()).toEqual([
      "Domain",
      "DomainVerification",
      "Route",
      "SubAccount",
      "SubAccountApiKey",
      "Tenant",
    ]);
    // (The Tenant is a component: the engine records no provider for it, only for its parts.)
    for (const r of parts.filter((r) => r.type !== "txmail:index:Tenant"))
      expect([r.type, providerOf(r)]).toEqual([r.type, "account"]);
    const ci = all.find((r) => r.urn.endsWith("::gopher-ci"));
    expect(providerOf(ci!)).toMatch(/^default(_|$)/);
    // The engine's progress was captured (what the scans above read).
    expect(printed).toContain("gopher-ci");
  });

  it("destroy leaves no object the program created", async () => {
    const control = controlClient(svc);
    await control.resetCounters();
    const destroy = await step("destroy");
    destroyed = true;
    const counters = await control.counters();
    expect(destroy.changes).toEqual({ delete: 11 });
    expect(await objects()).toEqual({});
    // The records are gone from DNS too (the zone stays: the name does not exist).
    expect(await cname(`txm1._domainkey.${DOMAIN}`)).toBe("ENOTFOUND");
    expect(await cname(`rp.${DOMAIN}`)).toBe("ENOTFOUND");
    expect(printed).not.toContain(svc.apiKey);
    console.log(`destroy: ${counters.reads} reads, ${counters.writes} writes`);
  });
});
