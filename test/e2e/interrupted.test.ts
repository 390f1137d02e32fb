// `pulumi up` of 50 tenants (300 objects) interrupted with Ctrl-C at several points, then run again,
// on the real engine and CLI: 0 duplicates and 0 orphans at every stop that Pulumi completes itself
// (one Ctrl-C: the engine finishes the operations in flight and records them), and after the hard
// stop (a second Ctrl-C: the engine leaves its in-flight creates as pending operations) once the
// guide's commands (docs/guide/behaviour.md#interrupted-runs) have run — `pulumi refresh --clear-pending-creates --yes`, then `pulumi up`,
// whose creates replay the interrupted ones by their idempotency keys. A CLI killed outright
// (SIGKILL) is test/e2e/killedFastRun.test.ts, on both faces.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { controlClient, serviceObjects } from "../../support/control";
import { createTestStack, REPO_ROOT, type TestStack } from "./harness";
import { exitOf, pressCtrlC, until } from "../../support/processes";
import { startService, type TestService } from "../../support/service";
import { byKind, pendingOperations, stateObjects } from "../../support/stackState";

jest.setTimeout(10 * 60_000);

const PROGRAM = path.join(REPO_ROOT, "bench", "programs", "tenants");
const TENANTS = 50;
const OBJECTS = TENANTS * 6;
/** Creates (a tenant's, in its sub account) held after commit, so that the hard stop lands while they are in flight. */
const HELD_CREATES = ["/v2/accounts/{account_id}/routes", "/v2/accounts/{account_id}/webhooks"];

let svc: TestService;
let t: TestStack;
/** Every stack of this file: the service's objects are the union of their states. */
const stacks: TestStack[] = [];
let dataDir: string;
let baseline: Set<string>;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-int-"));
  svc = await startService({ dataDir });
  baseline = new Set(serviceObjects(await controlClient(svc).dumpState()).map((o) => o.id));
  t = await tenantsStack("int", TENANTS);
});

async function tenantsStack(name: string, tenants: number): Promise<TestStack> {
  const stack = await createTestStack({
    programDir: PROGRAM,
    name,
    config: { ...svc.config(), tenants: { value: String(tenants) } },
    packageLayout: "installed",
  });
  stacks.push(stack);
  return stack;
}

afterAll(async () => {
  for (const stack of stacks) await stack.dispose();
  await svc?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Every route and webhook create from now on is answered 5 s after it commits. */
async function holdCreates(): Promise<void> {
  for (const p of HELD_CREATES)
    await controlClient(svc).injectFault({
      method: "POST",
      path: p,
      kind: "delay-after",
      delayMs: 5_000,
      count: 1_000,
    });
}

const writes = async () => (await controlClient(svc).counters()).writes;
const created = async () => serviceObjects(await controlClient(svc).dumpState()).filter((o) => !baseline.has(o.id));

/** Every live object the runs made is in a state exactly once, and the states hold nothing else. */
async function expectNoDuplicatesNoOrphans(): Promise<number> {
  const service = await created();
  const state = (await Promise.all(stacks.map(stateObjects))).flat();
  expect(new Set(state.map((o) => o.id)).size).toBe(state.length);
  expect(byKind(service)).toEqual(byKind(state));
  return service.length;
}

/** `pulumi up`, with Ctrl-C pressed once per entry, each after that many more writes to the service. */
async function upInterrupted(ctrlCAfterWrites: number[], gapMs = 0): Promise<number | null> {
  const child = t.spawnCli(["up", "--yes", "--skip-preview"]);
  for (const more of ctrlCAfterWrites) {
    const target = (await writes()) + more;
    await until(`${more} more writes`, async () => child.exitCode !== null || (await writes()) >= target, 120_000);
    if (child.exitCode !== null) break;
    pressCtrlC(child);
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
  }
  return exitOf(child);
}

test("interrupted once, twice: each stop leaves every object the run made in state exactly once", async () => {
  for (const after of [40, 120]) {
    const code = await upInterrupted([after]);
    expect(code).not.toBe(0);
    expect(await pendingOperations(t)).toEqual([]);
    const made = await expectNoDuplicatesNoOrphans();
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(OBJECTS);
  }
  expect(t.log()).toContain("^C received; cancelling");
});

test("a hard stop (Ctrl-C twice) leaves pending creates; the guide's commands finish the job", async () => {
  const control = controlClient(svc);
  await holdCreates();
  const before = (await created()).length;
  // The second Ctrl-C comes while the held creates are committed on the service and unanswered.
  const code = await upInterrupted([30, 0], 1_000);
  expect(code).not.toBe(0);
  expect(t.log()).toContain("^C received; terminating");
  await control.clearFaults();
  const pending = await pendingOperations(t);
  expect(pending.length).toBeGreaterThan(0);
  expect(pending.every((p) => p.type === "creating")).toBe(true);
  expect((await created()).length).toBeGreaterThan(before);

  // What docs/guide/behaviour.md#interrupted-runs says to do.
  expect(await exitOf(t.spawnCli(["refresh", "--clear-pending-creates", "--yes"]))).toBe(0);
  expect(await pendingOperations(t)).toEqual([]);
  expect(await exitOf(t.spawnCli(["up", "--yes"]))).toBe(0);

  expect(await expectNoDuplicatesNoOrphans()).toBe(OBJECTS);
});
