// The fleet command on the real engine against the emulator (issue 19): 9 tenants in shards of 4 →
// 3 shard stacks; up; a no-op rerun of a reordered file (nothing moves); a removed and an added
// tenant (only their shard changes, only their objects are written); a preview with the policy pack
// per shard; `--tenant` touching only its shard; one shard failing (fault injected on one sub
// account's calls) while the others finish, with a non-zero exit; resume; a renamed tenant; destroy
// leaves 0 objects.
// `output --tenant` is tested in postgres.test.ts, from another machine than the runners'.
// Each step builds on the previous one's state, as a platform team's runs would.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import YAML, { stringify } from "yaml";
import { controlClient, serviceObjects, type EmulatorControl } from "../../../support/control";
import { FACES, REPO_ROOT, TOOLS_DIR } from "../harness";
import { startService, type TestService } from "../../../support/service";
import { runFleet, type FleetRun } from "../../../support/fleetCli";
import { onFace } from "../onFace";
import { TxmailApiError, createClient } from "../../../provider/client";
import type { RotateReport } from "../../../fleet/rotate/types";

jest.setTimeout(20 * 60_000);

interface Spec {
  name: string;
  credit?: number;
  allowList?: boolean;
  /** A second webhook: same scopes as the first, so adding it changes no key. */
  moreHooks?: boolean;
  /** Its bootstrap key on a rotation schedule (`txmail-fleet rotate`). */
  rotates?: boolean;
}
const SCHEDULE = { every: "30d", overlap: "7d" };
const hook = (name: string, path: string) => ({ url: `https://${name}.example.com/${path}`, events: ["bounced"] });
// Every tenant has a webhook from the start: its bootstrap key then holds the webhook scopes, and
// adding a second webhook later is a create only (a first one would also change the key's scopes,
// and drop the retired ones a run later — the Tenant's own two-run convergence, not the fleet's).
const tenant = (s: Spec) => ({
  name: s.name,
  website: `${s.name}.example.com`,
  ...(s.credit === undefined ? {} : { monthlyCredit: s.credit }),
  ...(s.allowList === false
    ? {}
    : { bootstrapKey: { ipAllowList: ["127.0.0.1"], ...(s.rotates ? { rotation: SCHEDULE } : {}) } }),
  webhooks: { events: hook(s.name, "events"), ...(s.moreHooks ? { more: hook(s.name, "more") } : {}) },
});
// t1 (shard-001) and t9 (shard-003) rotate their bootstrap key on a schedule, from the first up.
const nine = (): Spec[] =>
  Array.from({ length: 9 }, (_, i) => ({ name: `t${i + 1}`, ...(i === 0 || i === 8 ? { rotates: true } : {}) }));

let svc: TestService;
let control: EmulatorControl;
let dir: string;
let stateDir: string;
let tenantsFile: string;
let placementFile: string;
/** What the emulator holds before the fleet (its root key). */
let baseline: Set<string>;

/** What the tenants file holds now: each step changes it from the previous step's. */
let current: Spec[];
const writeTenants = (specs: Spec[]) => {
  current = specs;
  fs.writeFileSync(tenantsFile, stringify({ tenants: specs.map(tenant) }));
};
/** The emulator's clock offset, given to every fleet run (and so to its providers) once a test moved it. */
let clockEnv: Record<string, string> = {};
const fleet = (...args: string[]) => runFleet(args, { cwd: dir, stateDir, svc, env: clockEnv });
const placement = () =>
  JSON.parse(fs.readFileSync(placementFile, "utf8")) as {
    face: string;
    shards: number[];
    tenants: Record<string, number>;
  };

/** Live sub accounts by name (a tenant's sub account is named after it). */
async function subAccounts(): Promise<Record<string, string>> {
  const d = await control.dumpState();
  return Object.fromEntries(
    d.accounts
      .filter((a) => a.parent_account_id !== null && a.status !== "deleted")
      .map((a) => [a.name as string, a.id]),
  );
}

/** Paths of every write the service received since the last clear. */
async function writes(): Promise<string[]> {
  const log = await control.requests();
  expect(log.dropped).toBe(0);
  return log.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
}

function expectOk(run: FleetRun): void {
  if (run.code !== 0) throw new Error(`fleet exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
}

describe.each(FACES)("txmail-fleet on the real engine, %s face", (face) => {
  let ids: Record<string, string>;
  // Steps of the fleet's own logic, the same whatever the face (placement, selection, the policy
  // pack per shard, shard logs, the lane's worker, a failed shard and its resume, a renamed
  // tenant's shard): registered on one face only, native (a new fleet's default), so the suite does
  // not pay for them twice. What the face decides — how the shard program registers the tenants
  // and its stack salt — runs on both: the up. What the face decides below the fleet is proven on
  // both faces by the tenants program (test/e2e/tenants.test.ts: a no-op second up, a rename's
  // aliases); the destroy, the fleet's own, runs on the dynamic face (the native face's destroy of
  // every kind is the acceptance run's).
  const fleetLogic: (...args: Parameters<typeof it>) => void = face === "native" ? it : () => undefined;

  beforeAll(async () => {
    clockEnv = {};
    svc = await startService();
    control = controlClient(svc);
    baseline = new Set(serviceObjects(await control.dumpState()).map((o) => o.id));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-fleet-"));
    stateDir = path.join(dir, "state");
    fs.mkdirSync(stateDir);
    tenantsFile = path.join(dir, "tenants.yaml");
    placementFile = path.join(dir, "tenants.placement.json");
  });

  afterAll(async () => {
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("up: 9 tenants in shards of 4 make 3 shard stacks, placed in file order", async () => {
    writeTenants(nine());
    // One lane: a single worker process runs the three shards one after another, each its own
    // inline program run with its own stack salt.
    const run = await fleet("up", "--shard-size", "4", "--parallel", "1", "--face", face);
    expectOk(run);
    expect(placement().shards).toEqual([1, 2, 3]);
    expect(placement().tenants).toEqual({ t1: 1, t2: 1, t3: 1, t4: 1, t5: 2, t6: 2, t7: 2, t8: 2, t9: 3 });
    // Per tenant: the Tenant component, its sub account, bootstrap key and webhook; on the dynamic face
    // the shard's StackSalt too. The salt is born in each new shard's state, never in its settings
    // file (provider/core/pinnedSalt.ts): the first run saves it and creates nothing, and runs again.
    // The refused first run ends while some Tenant components are half registered: whether their
    // create step is counted there depends on timing (the next run finds them done), so a row holds
    // every service object (3 a tenant) and at most the components and the StackSalt besides. The
    // objects themselves are checked at the service below.
    const salt = face === "dynamic" ? 1 : 0;
    for (const [shard, tenants] of [
      ["shard-001", 4],
      ["shard-002", 4],
      ["shard-003", 1],
    ] as const) {
      expect(run.rows[shard]).toMatchObject({ result: "ok", failed: 0 });
      expect(run.rows[shard]!.created).toBeGreaterThanOrEqual(3 * tenants);
      expect(run.rows[shard]!.created).toBeLessThanOrEqual(4 * tenants + salt);
    }
    expect(run.stdout + run.stderr).toContain("running again");
    expect(fs.readFileSync(path.join(dir, ".txmail-fleet", "Pulumi.shard-001.yaml"), "utf8")).not.toContain(
      "stackSalt",
    );
    expect(placement().face).toBe(face);
    expect(run.stdout).toMatch(/\[shard-00\d\] done in [\d.]+s: .* overall 3\/3 shards finished, 0 failed/);
    ids = await subAccounts();
    expect(Object.keys(ids).sort()).toEqual(
      nine()
        .map((s) => s.name)
        .sort(),
    );
  });

  it("the fleet keeps its face: asking for the other fails naming it, and runs nothing", async () => {
    const other = face === "dynamic" ? "native" : "dynamic";
    const before = fs.readFileSync(placementFile, "utf8");
    await control.clearRequests();
    const run = await fleet("up", "--face", other);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--face: this fleet's resources are ${face}`);
    expect(run.stdout).not.toMatch(/shard-00\d/);
    expect(fs.readFileSync(placementFile, "utf8")).toBe(before);
    expect(await writes()).toEqual([]);
  });

  fleetLogic(
    "a rerun of the file reordered is a no-op: nothing moves, nothing is written, and one lane's worker looks the CLI up once and runs only each shard's up",
    async () => {
      const before = fs.readFileSync(placementFile, "utf8");
      writeTenants(nine().reverse());
      // A `pulumi` ahead of the real one on PATH that records each run's subcommand.
      const bin = path.join(dir, "recording-bin");
      const runs = path.join(dir, "pulumi-runs.log");
      fs.mkdirSync(bin, { recursive: true });
      fs.writeFileSync(
        path.join(bin, "pulumi"),
        `#!/bin/sh\necho "$1 $2" >> '${runs}'\nexec '${path.join(TOOLS_DIR, "bin", "pulumi")}' "$@"\n`,
        { mode: 0o755 },
      );
      await control.clearRequests();
      // One lane: a single worker runs the three shards, so it runs a second and a third shard.
      const run = await runFleet(["up", "--parallel", "1"], { cwd: dir, stateDir, svc, pathPrefix: bin });
      expectOk(run);
      expect(fs.readFileSync(placementFile, "utf8")).toBe(before);
      expect(run.rows.total).toMatchObject({
        created: 0,
        updated: 0,
        replaced: 0,
        deleted: 0,
        failed: 0,
        unchanged: 36,
      });
      expect(await writes()).toEqual([]);
      expect(await subAccounts()).toEqual(ids);
      const subcommands = fs
        .readFileSync(runs, "utf8")
        .trim()
        .split("\n")
        .map((line) => (line.startsWith("stack ") ? line : line.split(" ")[0]));
      // One worker ran the three shards: one version lookup (and the fleet command's), then per shard
      // the up alone: no `stack select` before it (the stacks exist), no `stack output` or `stack
      // history` after it. Before any shard runs, the fleet command reads the backend once (its own
      // CLI lookup): the project's stacks and this fleet's (two `stack ls`), and each stack's
      // tenants (one export each).
      expect(subcommands.sort()).toEqual([
        "stack export",
        "stack export",
        "stack export",
        "stack ls",
        "stack ls",
        "up",
        "up",
        "up",
        "version",
        "version",
      ]);
    },
  );

  fleetLogic(
    "preview runs the policy pack per shard: only the shard of the offending tenant fails, and the placement file stays",
    async () => {
      // t6 leaves, t10 arrives without an allow list (made mandatory by the policy config).
      writeTenants([...nine().filter((s) => s.name !== "t6"), { name: "t10", allowList: false }]);
      const config = path.join(dir, "policy-config.json");
      fs.writeFileSync(
        config,
        JSON.stringify({ "sub-account-key-requires-allow-list": { enforcementLevel: "mandatory" } }),
      );
      const before = fs.readFileSync(placementFile, "utf8");
      const run = await fleet(
        "preview",
        "--policy-pack",
        path.join(REPO_ROOT, "policy"),
        "--policy-pack-config",
        config,
      );
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(
        /new: t10 → shard-002; removed \(deleted by their shard's next up\): t6 from shard-002/,
      );
      expect(run.rows["shard-002"]?.result).toBe("FAILED");
      expect(run.rows["shard-001"]).toMatchObject({ result: "ok", created: 0, deleted: 0 });
      expect(run.rows["shard-003"]).toMatchObject({ result: "ok", created: 0, deleted: 0 });
      expect(run.stdout).toMatch(
        /\[shard-002\] policy violation \(mandatory\) sub-account-key-requires-allow-list: t10-bootstrap: /,
      );
      expect(run.stdout).not.toMatch(/\[shard-00[13]\] policy violation/);
      expect(fs.readFileSync(placementFile, "utf8")).toBe(before);
    },
  );

  fleetLogic("removing one tenant and adding one changes only their shard, and writes only their objects", async () => {
    writeTenants([...nine().filter((s) => s.name !== "t6"), { name: "t10" }]);
    await control.clearRequests();
    const run = await fleet("up");
    expectOk(run);
    expect(placement().tenants).toEqual({ t1: 1, t2: 1, t3: 1, t4: 1, t5: 2, t7: 2, t8: 2, t9: 3, t10: 2 });
    expect(run.rows["shard-002"]).toMatchObject({ result: "ok", created: 4, deleted: 4, updated: 0, replaced: 0 });
    for (const s of ["shard-001", "shard-003"]) {
      expect(run.rows[s]).toMatchObject({ result: "ok", created: 0, updated: 0, replaced: 0, deleted: 0 });
    }
    const now = await subAccounts();
    const { t6, ...kept } = ids;
    expect(now).toEqual({ ...kept, t10: now.t10 });
    // Every write is t10's creation (its sub account under the parent, then its key and webhook) or
    // t6's removal: each names their sub account, but the one create of a sub account.
    const all = await writes();
    for (const w of all) {
      const ok = w === `POST /v2/accounts/${svc.accountId}/sub-accounts` || w.includes(t6!) || w.includes(now.t10!);
      expect({ write: w, ok }).toEqual({ write: w, ok: true });
    }
    expect(all.filter((w) => w.includes(now.t10!) || w.endsWith("/sub-accounts"))).toHaveLength(3);
    expect(all.filter((w) => w.includes(t6!))).toHaveLength(3);
    ids = now;
  });

  fleetLogic(
    "--tenant applies one tenant's change and runs only its shard; --debug puts the engine's and the program's debug messages in the shard's log",
    async () => {
      const specs = () => [...nine().filter((s) => s.name !== "t6"), { name: "t10" }];
      writeTenants(specs().map((s) => (s.name === "t1" || s.name === "t9" ? { ...s, credit: 500 } : s)));
      const log = path.join(dir, ".txmail-fleet", "logs", "shard-001.up.log");
      const before = fs.existsSync(log) ? fs.statSync(log).size : 0;
      const run = await fleet("up", "--tenant", "t1", "--debug");
      expectOk(run);
      expect(Object.keys(run.rows).sort()).toEqual(["shard-001", "total"]);
      expect(run.rows["shard-001"]).toMatchObject({ result: "ok", updated: 1, created: 0, deleted: 0 });
      const d = await control.dumpState();
      const credit = (id: string) => d.accounts.find((a) => a.id === id)?.monthly_credit;
      expect(credit(ids.t1!)).toBe(500);
      expect(credit(ids.t9!)).not.toBe(500); // t9's shard was not run
      const written = fs.readFileSync(log, "utf8").slice(before);
      // The SDK's own message for each resource the program registers (sdkDebugMessages.ts).
      expect(written).toMatch(/Registering resource: t=\S+, name=t1-/);
    },
  );

  fleetLogic(
    "one shard failing (its calls fail at the service) while the others finish: non-zero exit, then resume",
    async () => {
      // Every tenant gains a second webhook; t5's sub account (shard-002) answers 503 to every webhook create.
      const specs = [...nine().filter((s) => s.name !== "t6"), { name: "t10" }].map((s) => ({
        ...s,
        ...(s.name === "t1" || s.name === "t9" ? { credit: 500 } : {}),
        moreHooks: true,
      }));
      writeTenants(specs);
      await control.injectFault({
        method: "POST",
        path: `/v2/accounts/${ids.t5}/webhooks`,
        kind: "error-before",
        status: 503,
        count: 1000,
      });
      const failed = await fleet("up");
      expect(failed.code).toBe(1);
      expect(failed.rows["shard-002"]).toMatchObject({ result: "FAILED" });
      expect(failed.rows["shard-002"]!.failed).toBeGreaterThanOrEqual(1);
      expect(failed.rows["shard-001"]).toMatchObject({ result: "ok", created: 4, failed: 0 });
      // shard-003 also applies t9's credit change, left pending by the --tenant run.
      expect(failed.rows["shard-003"]).toMatchObject({ result: "ok", created: 1, updated: 1, failed: 0 });
      expect(failed.rows.total?.result).toBe("1 FAILED");
      expect(failed.stdout).toMatch(/\[shard-002\] error: /);
      expect(failed.stdout).toMatch(/1 shard\(s\) failed: run the same command again to continue/);
      const webhooksOf = async () => {
        const d = await control.dumpState();
        return Object.fromEntries(
          Object.entries(ids).map(([t, id]) => [t, d.webhooks.filter((w) => w.account_id === id).length]),
        );
      };
      const afterFailure = await webhooksOf();
      expect(afterFailure.t5).toBe(1);
      for (const t of ["t1", "t2", "t3", "t4", "t9"]) expect(afterFailure[t]).toBe(2);

      // Resume: the same command; the finished shards are no-ops, the failed one completes.
      await control.clearFaults();
      await control.clearRequests();
      const resumed = await fleet("up");
      expectOk(resumed);
      for (const s of ["shard-001", "shard-003"]) {
        expect(resumed.rows[s]).toMatchObject({ created: 0, updated: 0, replaced: 0, deleted: 0 });
      }
      expect(resumed.rows["shard-002"]!.created).toBeGreaterThanOrEqual(1);
      expect(Object.values(await webhooksOf())).toEqual(Object.keys(ids).map(() => 2));
      const shard2 = ["t5", "t7", "t8", "t10"].map((t) => ids[t]!);
      for (const w of await writes())
        expect({ w, inShard2: shard2.some((id) => w.includes(id)) }).toEqual({ w, inShard2: true });
    },
  );

  fleetLogic(
    "renaming a tenant (formerNames) keeps its shard and its objects: only the name-derived key label changes",
    async () => {
      const entries = current.map(tenant);
      const placedBefore = placement().tenants;
      // t7 becomes t7-renamed; its display name stays as it was (it defaults to the tenant's name).
      const renamed = entries.map((e) =>
        e.name === "t7" ? { ...e, name: "t7-renamed", formerNames: ["t7"], displayName: "t7" } : e,
      );
      fs.writeFileSync(tenantsFile, stringify({ tenants: renamed }));
      await control.clearRequests();
      const run = await fleet("up");
      expectOk(run);
      expect(run.stdout).toContain("renamed (their objects stay): t7 → t7-renamed in shard-002");
      const { t7: shardOfT7, ...others } = placedBefore;
      expect(shardOfT7).toBe(2);
      expect(placement().tenants).toEqual({ ...others, "t7-renamed": 2 });
      // The tenant's component and children answer to their former names (aliases): nothing is
      // created, deleted or replaced; the bootstrap key's label ("t7 bootstrap") follows the name.
      expect(run.rows["shard-002"]).toMatchObject({ result: "ok", created: 0, deleted: 0, replaced: 0, updated: 1 });
      for (const s of ["shard-001", "shard-003"]) {
        expect(run.rows[s]).toMatchObject({ result: "ok", created: 0, updated: 0, replaced: 0, deleted: 0 });
      }
      expect(await subAccounts()).toEqual(ids);
      const all = await writes();
      expect(all).toHaveLength(1);
      expect(all[0]).toMatch(new RegExp(`^(PUT|PATCH) .*${ids.t7}.*/api-keys/`));
      const d = await control.dumpState();
      expect(d.api_keys.filter((k) => k.label === "t7-renamed bootstrap")).toHaveLength(1);
      // Converged: the next run of its shard changes nothing.
      await control.clearRequests();
      const again = await fleet("up", "--tenant", "t7-renamed");
      expectOk(again);
      expect(again.rows["shard-002"]).toMatchObject({ created: 0, updated: 0, replaced: 0, deleted: 0 });
      expect(await writes()).toEqual([]);
    },
  );

  fleetLogic(
    "the tenants file renamed and resized: the placement is rebuilt from the stacks, a hand-edited one moves a tenant in the state, a second fleet is refused — every id and secret kept",
    async () => {
      const live = async () => {
        const d = await control.dumpState();
        return serviceObjects(d)
          .filter((o) => !baseline.has(o.id))
          .map((o) => o.id)
          .sort();
      };
      const secretOf = async (file: string, name: string) => {
        const out = await fleet("output", "--tenants", file, "--tenant", name, "--show-secrets");
        expectOk(out);
        return JSON.parse(out.stdout) as { shard: string; credentials: { bootstrapKey: string } };
      };
      const objects = await live();
      const before = await secretOf(tenantsFile, "t1");
      // Renamed (the placement file's default name follows it: fleet.placement.json, not there) and reordered.
      const renamedFile = path.join(dir, "fleet.yaml");
      const renamedPlacement = path.join(dir, "fleet.placement.json");
      fs.renameSync(tenantsFile, renamedFile);
      fs.writeFileSync(
        renamedFile,
        stringify({ tenants: [...(YAML.parse(fs.readFileSync(renamedFile, "utf8")).tenants as unknown[])].reverse() }),
      );
      await control.clearRequests();
      const rebuilt = await fleet("up", "--tenants", renamedFile, "--shard-size", "3");
      expectOk(rebuilt);
      expect(rebuilt.stdout).toMatch(/no placement file: rebuilt from the 3 shard stacks of fleet [0-9a-f]{16}/);
      expect(rebuilt.rows.total).toMatchObject({ created: 0, deleted: 0, replaced: 0, failed: 0 });
      const was = JSON.parse(fs.readFileSync(placementFile, "utf8")) as { tenants: Record<string, number> };
      const now = JSON.parse(fs.readFileSync(renamedPlacement, "utf8")) as {
        fleetId: string;
        shardSize: number;
        tenants: Record<string, number>;
      };
      expect(now.tenants).toEqual(was.tenants);
      expect(now.shardSize).toBe(3);
      expect(await writes()).toEqual([]);

      // A hand edit moves t1 to shard 3: `--frozen` refuses before any write; `up` moves it in the state.
      fs.writeFileSync(renamedPlacement, JSON.stringify({ ...now, tenants: { ...now.tenants, t1: 3 } }, null, 2));
      const frozen = await fleet("up", "--tenants", renamedFile, "--frozen");
      expect(frozen.code).toBe(2);
      expect(frozen.stderr).toContain("would move t1 from shard-001 to shard-003");
      // Only t1's shard runs (now shard-003): its up after the move changes nothing.
      const moved = await fleet("up", "--tenants", renamedFile, "--tenant", "t1");
      expectOk(moved);
      expect(moved.stdout).toMatch(/moved t1 from shard-001 to shard-003 in the state \(\d+ resources/);
      expect(Object.keys(moved.rows).sort()).toEqual(["shard-003", "total"]);
      expect(moved.rows.total).toMatchObject({ created: 0, deleted: 0, replaced: 0, updated: 0, failed: 0 });
      const after = await secretOf(renamedFile, "t1");
      expect(after.shard).toBe("shard-003");
      expect(after.credentials.bootstrapKey).toBe(before.credentials.bootstrapKey);
      expect(await writes()).toEqual([]);

      // A second fleet (its own tenants file and work dir) on the same backend and project: refused, nothing run.
      const other = path.join(dir, "other");
      fs.mkdirSync(other);
      fs.writeFileSync(
        path.join(other, "tenants.yaml"),
        stringify({ tenants: [tenant({ name: "t1" }), tenant({ name: "x1" })] }),
      );
      const second = await runFleet(["up", "--tenants", path.join(other, "tenants.yaml")], {
        cwd: other,
        stateDir,
        svc,
      });
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(
        /backend holds shard stacks of project 'txmail-fleet': shard-001, shard-002, shard-003 \(fleet [0-9a-f]{16}\)/,
      );
      expect(await writes()).toEqual([]);
      expect(await live()).toEqual(objects);
      expect(await subAccounts()).toEqual(ids);
      fs.renameSync(renamedFile, tenantsFile);
      fs.renameSync(renamedPlacement, placementFile);
    },
  );

  // The rotation is the generic provider's, below both faces (its cases: test/conformance/core/
  // rotation.test.ts); the fleet's command over it is face-blind: the dynamic face, whose fleet this
  // reuses as the first up made it (t1 and t9 on a schedule) and whose destroy, next, then deletes
  // both of t9's live keys — and fails (401) if a rotation left a tenant's objects on a revoked key.
  // It also stands as the end-to-end test of a key on a schedule through the engine (a Tenant's,
  // through the tenants file): an update never a replacement, both keys live through the overlap,
  // the previous revoked after it, both encrypted in state.
  onFace(face, "dynamic")(
    "rotate: nothing due runs no shard; due after the clock moves, --tenant rotates only its shard's; both keys work through the overlap; after it the previous is revoked (401); --older-than rotates early; no secret said",
    async () => {
      const KEY_SECRET = /[a-z0-9]+-sk-[A-Za-z0-9]{64}/;
      const DAY = 86_400_000;
      const rotate = async (args: string[], env: Record<string, string> = {}) => {
        await control.clearRequests();
        const run = await runFleet(["rotate", ...args], { cwd: dir, stateDir, svc, env: { ...clockEnv, ...env } });
        expect(`${run.stdout}${run.stderr}`).not.toMatch(KEY_SECRET);
        if (run.code !== 0) throw new Error(`rotate exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
        return run;
      };
      const advance = async (ms: number) => {
        const { offsetMs } = await control.advanceClock(ms);
        clockEnv = { TXMAIL_CLOCK_OFFSET_SECONDS: String(offsetMs / 1000) };
      };
      const live = async (label: string) =>
        (await control.dumpState()).api_keys.filter((k) => k.label === label).map((k) => k.id);
      const bootstrapKeyOf = async (tenant: string) => {
        const out = await fleet("output", "--tenant", tenant, "--show-secrets");
        expectOk(out);
        return (JSON.parse(out.stdout) as { credentials: { bootstrapKey: string } }).credentials.bootstrapKey;
      };
      const ping = async (secret: string) => {
        const c = createClient({ apiKey: secret, baseUrl: svc.baseUrl, rateLimit: false, retry: { maxAttempts: 1 } });
        try {
          await c.ping();
          return 200;
        } catch (err) {
          if (err instanceof TxmailApiError && err.status !== undefined) return err.status;
          throw err;
        }
      };
      /** The table's row of a resource: its action, its times (to the minute). */
      const row = (stdout: string, resource: string) =>
        stdout
          .split("\n")
          .find((l) => l.split(/\s+/)[1] === resource)
          ?.split(/\s{2,}/);
      const shardsRun = (stdout: string) => [...new Set(stdout.match(/^\[shard-\d{3}\]/gm) ?? [])].sort();
      const t1Key = "t1 bootstrap";
      const t9Key = "t9 bootstrap";
      const firstT1 = await bootstrapKeyOf("t1");

      // Nothing due yet: every shard's state read, none run, nothing written.
      const early = await rotate([]);
      expect(early.stdout).toMatch(
        /^rotate: 2 credentials on a schedule in 3 shards read in [\d.]+s; due: 0 rotations, 0 revocations — no shard to run$/m,
      );
      expect(row(early.stdout, "t1-bootstrap")).toEqual([
        "t1",
        "t1-bootstrap",
        "SubAccountApiKey",
        "not due",
        expect.any(String),
        expect.any(String),
      ]);
      expect(shardsRun(early.stdout)).toEqual([]);
      expect(await writes()).toEqual([]);

      // 30 days on: both due. --tenant t1 runs t1's shard alone and makes exactly one key, t1's.
      await advance(30 * DAY + 60_000);
      const one = await rotate(["--tenant", "t1"]);
      expect(shardsRun(one.stdout)).toEqual(["[shard-001]"]);
      expect(row(one.stdout, "t1-bootstrap")?.slice(0, 4)).toEqual([
        "t1",
        "t1-bootstrap",
        "SubAccountApiKey",
        "rotated",
      ]);
      expect(one.stdout).not.toMatch(/^t9 /m);
      expect(one.stdout).toContain("1 credentials on a schedule: 1 rotated, 0 previous revoked, 0 not due");
      expect(await writes()).toEqual([`POST /v2/accounts/${svc.accountId}/sub-accounts/${ids.t1}/api-keys`]);
      expect(await live(t1Key)).toHaveLength(2);
      expect(await live(t9Key)).toHaveLength(1);
      // An update of the key (its dependents' connection too), never a replacement; the engine's log
      // of the run says why (the provider's diff).
      expect(one.rows["shard-001"]).toMatchObject({ result: "ok", created: 0, replaced: 0, deleted: 0 });
      expect(one.rows["shard-001"]!.updated).toBeGreaterThanOrEqual(1);
      const log = fs.readFileSync(path.join(dir, ".txmail-fleet", "logs", "shard-001.rotate.log"), "utf8");
      expect(log).toContain("rotation: rotate (due at");
      // The stack's outputs carry the new key (the root stack is always part of a targeted up).
      const secondT1 = await bootstrapKeyOf("t1");
      expect(secondT1).not.toBe(firstT1);
      expect([await ping(firstT1), await ping(secondT1)]).toEqual([200, 200]);
      // Both keys in the state, the previous one (previousSecretKey) as encrypted as the current.
      const shardState = fs.readFileSync(
        path.join(stateDir, ".pulumi", "stacks", "txmail-fleet", "shard-001.json"),
        "utf8",
      );
      for (const secret of [firstT1, secondT1]) expect(shardState).not.toContain(secret);

      // The rest: t9's shard alone (t1's is done), as JSON on stdout.
      const rest = await rotate(["--json"]);
      const report = JSON.parse(rest.stdout) as RotateReport;
      expect(report.shards).toMatchObject({ read: 3, ran: ["shard-003"], failed: [], notRun: [] });
      expect(report.counts).toEqual({ rotated: 1, previousRevoked: 0, notDue: 1, failed: 0, notRun: 0 });
      const t9 = report.credentials.find((c) => c.tenant === "t9")!;
      expect(report.credentials.map((c) => [c.tenant, c.shard, c.resource, c.kind, c.action, c.cause])).toEqual([
        ["t1", "shard-001", "t1-bootstrap", "SubAccountApiKey", "not due", null],
        ["t9", "shard-003", "t9-bootstrap", "SubAccountApiKey", "rotated", "schedule"],
      ]);
      expect(Date.parse(t9.nextRotationAt!) - Date.parse(t9.rotatedAt!)).toBe(30 * DAY);
      expect(Date.parse(t9.previousRevokeAt!) - Date.parse(t9.rotatedAt!)).toBe(7 * DAY);
      expect(await writes()).toEqual([`POST /v2/accounts/${svc.accountId}/sub-accounts/${ids.t9}/api-keys`]);
      expect(await live(t9Key)).toHaveLength(2);

      // Past the overlap: the previous keys revoked, nothing rotated — even with an early-rotation
      // period in the shell's environment, which only --older-than passes on.
      await advance(7 * DAY + 60_000);
      const revoked = await rotate([], { TXMAIL_ROTATE_OLDER_THAN: "1h" });
      expect(shardsRun(revoked.stdout)).toEqual(["[shard-001]", "[shard-003]"]);
      expect(row(revoked.stdout, "t1-bootstrap")?.[3]).toBe("previous revoked");
      expect(row(revoked.stdout, "t9-bootstrap")?.[3]).toBe("previous revoked");
      expect((await writes()).filter((w) => w.startsWith("POST"))).toEqual([]);
      expect(await live(t1Key)).toHaveLength(1);
      expect(await live(t9Key)).toHaveLength(1);
      expect([await ping(firstT1), await ping(secondT1)]).toEqual([401, 200]);

      // After an incident: t9's key, 7 days old and due in 23, rotated now.
      const incident = await rotate(["--older-than", "7d", "--tenant", "t9"]);
      expect(row(incident.stdout, "t9-bootstrap")?.[3]).toBe("rotated (--older-than)");
      expect(incident.stdout).not.toMatch(/^t1 /m);
      expect(await live(t9Key)).toHaveLength(2);
      expect(await live(t1Key)).toHaveLength(1);
    },
  );

  onFace(face, "dynamic")("destroy brings every shard down: 0 objects left at the service", async () => {
    const run = await fleet("destroy", "--parallel", "3");
    expectOk(run);
    expect(run.rows.total).toMatchObject({ failed: 0, created: 0 });
    expect(run.rows.total!.deleted).toBeGreaterThan(0);
    const left = serviceObjects(await control.dumpState()).filter((o) => !baseline.has(o.id));
    expect(left).toEqual([]);
  });
});
