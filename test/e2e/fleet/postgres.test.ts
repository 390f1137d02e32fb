// The fleet beyond one machine (issue 32): shard stacks in a shared PostgreSQL state backend (a real
// server, support/postgres.ts) and runners as separate processes, each on its own "machine" (work
// dir, PULUMI_HOME, TMPDIR), all given the committed placement and --frozen, each with
// TXMAIL_RATE_SHARE=1/2, as the CI matrix of examples/ci/fleet.yml runs them. 6 tenants in shards
// of 2: runner 1 of 2 takes shard-001 and shard-003, runner 2 shard-002.
// - two runners at once, while a third process given runner 1's share fails at once on both its
//   shards, naming each and the lock's holder (the engine's stack lock; the alias --shard says it
//   is deprecated); every tenant exactly once at the service;
// - `output --tenant` from a third machine, for a tenant of each runner (passphrase secrets
//   provider: any runner decrypts any shard);
// - runner 1 killed (SIGKILL, whole process group) while a create it sent has committed at the
//   service and its answer is held back: the re-run on a fresh machine says which shards are locked
//   and what to do; the test does that, the run completes, every tenant exactly once.
import { type ChildProcess, execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify } from "yaml";
import { paths, Webhook } from "../../../provider/api";
import { createClient } from "../../../provider/client";
import type { TenantCredentials } from "../../../sdk/nodejs/tenantCredentials";
import { controlClient, serviceObjects, type EmulatorControl } from "../../../support/control";
import { engineEnv } from "../harness";
import { startPostgres, type PostgresServer } from "../../../support/postgres";
import { expectEnded, isProviderOf, processesOfHome } from "../../../support/processes";
import { startService, type TestService } from "../../../support/service";
import { runFleet, type FleetRun } from "../../../support/fleetCli";
import { exportStack, integrity, stateObjectsOf } from "../../../support/integrity";

jest.setTimeout(10 * 60_000);

const TENANTS = ["t1", "t2", "t3", "t4", "t5", "t6"];
const RUNNER_1 = ["shard-001", "shard-003"];
const hook = (name: string, p: string) => ({ url: `https://${name}.example.com/${p}`, events: ["bounced"] });
const tenantsYaml = (moreHooks: boolean) =>
  stringify({
    tenants: TENANTS.map((name) => ({
      name,
      website: `${name}.example.com`,
      bootstrapKey: { ipAllowList: ["127.0.0.1"] },
      webhooks: { events: hook(name, "events"), ...(moreHooks ? { more: hook(name, "more") } : {}) },
    })),
  });

let pg: PostgresServer;
let svc: TestService;
let control: EmulatorControl;
let root: string;
/** The repository: tenants file and committed placement, copied to every machine. */
let repo: string;
let baseline: Set<string>;

interface Machine {
  dir: string;
  env: Record<string, string>;
}

/** A fresh CI machine: a checkout of the repository, its own PULUMI_HOME and TMPDIR. */
function machine(name: string): Machine {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
  for (const f of ["tenants.yaml", "tenants.placement.json"]) fs.copyFileSync(path.join(repo, f), path.join(dir, f));
  return {
    dir,
    env: {
      PULUMI_BACKEND_URL: pg.url,
      PULUMI_HOME: path.join(dir, "pulumi-home"),
      TMPDIR: path.join(dir, "tmp"),
      TXMAIL_RATE_SHARE: "1/2",
    },
  };
}

function fleet(m: Machine, args: string[], opts: { onStart?: (c: ChildProcess) => void } = {}): Promise<FleetRun> {
  return runFleet(args, { cwd: m.dir, stateDir: path.join(m.dir, "state"), svc, env: m.env, ...opts });
}

function expectOk(run: FleetRun): void {
  if (run.code !== 0) throw new Error(`fleet exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
}

/** Waits (bounded) until the emulator's injected fault `id` has fired `n` times. */
async function fired(id: number, n: number, what: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const count = (await control.faults()).find((f) => f.id === id)?.fired ?? 0;
    if (count >= n) return;
    if (Date.now() > deadline) throw new Error(`${what}: fired ${count} of ${n} times in 180 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The service's objects against every shard's state: every tenant exactly once. */
async function expectEveryTenantOnce(webhooksEach: number): Promise<void> {
  const env = { ...process.env, ...engineEnv(path.join(root, "auditor")), PULUMI_BACKEND_URL: pg.url };
  const state = (
    await Promise.all(
      ["shard-001", "shard-002", "shard-003"].map((s) => exportStack(`organization/txmail-fleet/${s}`, env, root)),
    )
  ).flatMap(stateObjectsOf);
  expect(await integrity(control, baseline, state)).toMatchObject({ duplicates: 0, orphans: 0, missing: 0 });
  const d = await control.dumpState();
  const subs = d.accounts.filter((a) => a.parent_account_id !== null && a.status !== "deleted");
  expect(subs.map((a) => a.name).sort()).toEqual(TENANTS);
  for (const a of subs) expect(d.webhooks.filter((w) => w.account_id === a.id)).toHaveLength(webhooksEach);
}

/** Requests the service received since the last reset, for the report: totals and by route and status. */
async function requestCounts(label: string): Promise<void> {
  const c = await control.counters();
  const log = await control.requests();
  const by = new Map<string, number>();
  for (const r of log.requests) {
    const k = `${r.method} ${r.template ?? r.path} ${r.status ?? "no answer"}`;
    by.set(k, (by.get(k) ?? 0) + 1);
  }
  const lines = [...by].map(([k, n]) => `  ${n} × ${k}`).join("\n");
  process.stderr.write(`[fleet/postgres] ${label}: ${c.total} requests, ${c.writes} writes\n${lines}\n`);
}

beforeAll(async () => {
  [pg, svc] = await Promise.all([startPostgres(), startService()]);
  control = controlClient(svc);
  baseline = new Set(serviceObjects(await control.dumpState()).map((o) => o.id));
  root = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-fleet-pg-"));
  repo = path.join(root, "repo");
  fs.mkdirSync(repo);
  fs.writeFileSync(path.join(repo, "tenants.yaml"), tenantsYaml(false));
  // Placed once and committed; every runner runs it --frozen.
  const placed = await runFleet(["place", "--shard-size", "2"], {
    cwd: repo,
    stateDir: path.join(repo, "state"),
    svc,
  });
  expectOk(placed);
});

afterAll(async () => {
  await Promise.all([svc?.close(), pg?.close()]);
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

it("two runners at once; a third given runner 1's share fails at once on its locked shards, naming holder and remedy", async () => {
  await Promise.all([control.resetCounters(), control.clearRequests()]);
  // The first creates of runner 1's shards are held 28 s at the service: both its shard stacks
  // stay locked while the other processes start (the twin reached its lock check in 12-15 s on a
  // 2-core machine at load 15). Under the client's 30 s answer timeout, so nothing is retried.
  const hold = await control.injectFault({
    method: "POST",
    path: "/v2/accounts/{account_id}/sub-accounts",
    kind: "delay",
    delayMs: 28_000,
    count: 4, // its 4 tenants' sub accounts, 2 per shard, created in parallel
  });
  let firstDone = false;
  const first = fleet(machine("runner-1"), ["up", "--frozen", "--runner", "1/2"]).finally(() => (firstDone = true));
  await fired(hold.id, 4, "runner 1's first creates");
  const started = Date.now();
  // The same share again, under the flag's old name.
  const [twin, second] = await Promise.all([
    fleet(machine("runner-1-twin"), ["up", "--frozen", "--shard", "1/2"]).then((r) => ({
      ...r,
      seconds: (Date.now() - started) / 1000,
      whileFirstRan: !firstDone,
    })),
    fleet(machine("runner-2"), ["up", "--frozen", "--runner", "2/2"]),
  ]);
  const one = await first;
  expectOk(one);
  expectOk(second);
  process.stderr.write(
    `[fleet/postgres] the twin's run (${twin.seconds.toFixed(1)} s):\n${twin.stdout}${twin.stderr}\n`,
  );

  expect(Object.keys(one.rows).sort()).toEqual([...RUNNER_1, "total"]);
  expect(Object.keys(second.rows).sort()).toEqual(["shard-002", "total"]);
  // Per tenant: component, sub account, bootstrap key, webhook (native face: no stack salt resource).
  expect(one.rows.total).toMatchObject({ created: 16, failed: 0 });
  expect(second.rows.total).toMatchObject({ created: 8, failed: 0 });

  expect(twin.code).toBe(1);
  expect(twin.whileFirstRan).toBe(true);
  expect(twin.stderr.match(/--shard I\/N is deprecated: use --runner I\/N/g)).toHaveLength(1);
  for (const shard of RUNNER_1) {
    expect(twin.rows[shard]).toMatchObject({ result: "FAILED", created: 0 });
    expect(twin.stdout).toMatch(
      new RegExp(
        `${shard} is locked by another run \\(created by \\S+@\\S+ \\(pid \\d+\\) at \\S+\\)\\. ` +
          `If that run is still going \\(another runner given the same share\\), let it finish: do not unlock\\. ` +
          `If it died \\(a killed job\\), unlock the shard with ` +
          `'pulumi cancel --yes --stack organization/txmail-fleet/${shard}'`,
      ),
    );
  }
  expect(twin.stdout + twin.stderr).not.toContain(pg.password);
  await requestCounts("two runners + twin");
  await expectEveryTenantOnce(1);
});

it("output --tenant from a third machine: a tenant of each runner, credentials decrypted with the shared passphrase", async () => {
  const reader = machine("reader");
  const subs = Object.fromEntries(
    (await control.dumpState()).accounts.filter((a) => a.parent_account_id !== null).map((a) => [a.name, a.id]),
  );
  const masked = await fleet(reader, ["output", "--tenant", "t3"]);
  expectOk(masked);
  // stdout is the JSON alone (no placement line), for jq.
  const outputs = JSON.parse(masked.stdout) as { summary: Record<string, unknown> };
  expect(outputs).toMatchObject({ tenant: "t3", shard: "shard-002", credentials: "[secret]" });
  expect(outputs.summary).toMatchObject({ subAccountId: subs.t3 });
  for (const [tenant, shard] of [
    ["t1", "shard-001"],
    ["t3", "shard-002"],
  ] as const) {
    const run = await fleet(reader, ["output", "--tenant", tenant, "--show-secrets"]);
    expectOk(run);
    const { credentials, ...rest } = JSON.parse(run.stdout) as { credentials: TenantCredentials };
    expect(rest).toMatchObject({ tenant, shard });
    expect(credentials).toMatchObject({ apiKeys: {}, smtpCredentials: {}, routes: {} });
    for (const secret of [credentials.bootstrapKey, credentials.webhooks.events!]) {
      expect(secret.length).toBeGreaterThan(10);
      expect(masked.stdout + masked.stderr).not.toContain(secret);
    }
    // The bootstrap key is the tenant's own: it reads the tenant's webhook, as its tooling would.
    const asTenant = createClient({
      apiKey: credentials.bootstrapKey,
      accountId: subs[tenant]!,
      baseUrl: svc.baseUrl,
      rateLimit: false,
    });
    const hooks: string[] = [];
    for await (const w of asTenant.list(paths.webhooks(subs[tenant]!), Webhook)) hooks.push(w.url);
    expect(hooks).toEqual([`https://${tenant}.example.com/events`]);
  }
  const unknown = await fleet(reader, ["output", "--tenant", "nobody"]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain("--tenant: 'nobody' is neither in");
});

it("runner 1 killed mid-run: the re-run names the locked shards and the remedy; after it, every tenant exactly once", async () => {
  // A committed change with no placement change: every tenant gains a second webhook.
  fs.writeFileSync(path.join(repo, "tenants.yaml"), tenantsYaml(true));
  await Promise.all([control.resetCounters(), control.clearRequests()]);
  // The first webhook create commits at the service, then its answer is held: the runner dies
  // having made an object its state does not record.
  const held = await control.injectFault({
    method: "POST",
    path: "/v2/accounts/*/webhooks",
    kind: "delay-after",
    delayMs: 30_000,
    count: 1,
  });
  let doomed: ChildProcess | undefined;
  const doomedMachine = machine("runner-1-killed");
  const killed = fleet(doomedMachine, ["up", "--frozen", "--runner", "1/2"], {
    onStart: (c) => (doomed = c),
  });
  await fired(held.id, 1, "a webhook create of runner 1");
  const onDoomedMachine = (which?: (args: string) => boolean) => processesOfHome(doomedMachine.env.PULUMI_HOME!, which);
  const plugins = onDoomedMachine(isProviderOf("native"));
  expect(plugins.length).toBeGreaterThan(0);
  // The job's process group: fleet, workers, engines. The plugins each engine started run in
  // groups of their own; they end by themselves once their engine is gone (nothing kills them here).
  process.kill(-doomed!.pid!, "SIGKILL");
  const dead = await Promise.race([killed, new Promise<undefined>((r) => setTimeout(() => r(undefined), 15_000))]);
  expect(dead?.code).toBeNull(); // killed, within the bound
  await expectEnded(() => [...plugins, ...onDoomedMachine()], 10_000);
  // Runner 2 meanwhile, as the matrix's other job.
  const second = fleet(machine("runner-2-again"), ["up", "--frozen", "--runner", "2/2"]);

  // The job re-run, on a fresh machine.
  const again = machine("runner-1-rerun");
  const locked = await fleet(again, ["up", "--frozen", "--runner", "1/2"]);
  process.stderr.write(`[fleet/postgres] the re-run after the kill:\n${locked.stdout}${locked.stderr}\n`);
  expect(locked.code).toBe(1);
  const remedies = [
    ...locked.stdout.matchAll(/'(pulumi cancel --yes --stack organization\/txmail-fleet\/shard-00\d)'/g),
  ];
  const lockedShards = remedies.map((m) => m[1]!.split("/").pop()!);
  expect(lockedShards.length).toBeGreaterThanOrEqual(1);
  expect(new Set(lockedShards)).toEqual(
    new Set(Object.keys(locked.rows).filter((s) => locked.rows[s]!.result === "FAILED")),
  );
  // The remedy, as the message gives it, on that machine with its backend.
  for (const m of new Set(remedies.map((r) => r[1]!))) {
    const [cmd, ...args] = m.split(" ");
    await new Promise<void>((resolve, reject) =>
      execFile(
        cmd!,
        args,
        { cwd: again.dir, env: { ...process.env, ...engineEnv(path.join(again.dir, "state")), ...again.env } },
        (e, out, err) => (e ? reject(new Error(`${m}: ${err}`)) : resolve()),
      ),
    );
  }
  const resumed = await fleet(again, ["up", "--frozen", "--runner", "1/2"]);
  expectOk(resumed);
  expectOk(await second);
  await requestCounts("kill, re-run, unlock, resume");
  await expectEveryTenantOnce(2);
});
