// Two independent stacks with the same project and stack name (two engineers' local `dev` stacks,
// each with its own file backend) on one account, both `up` within the service's replay window:
// each gets its own objects — the URNs are equal, the stack salts are not — and a crash-and-rerun of
// one of them still replays its own creations (its salt was saved before the creates used it).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { controlClient, serviceObjects } from "../../support/control";
import { createTestStack, REPO_ROOT, type TestStack } from "./harness";
import { killProvider, until } from "../../support/processes";
import { startService, type TestService } from "../../support/service";
import { byKind, stackSaltOf, stateObjects } from "../../support/stackState";

jest.setTimeout(10 * 60_000);

const PROGRAM = path.join(REPO_ROOT, "bench", "programs", "tenants");
const TENANTS = 2;
/** Each tenant: sub account, bootstrap key, domain, route, webhook, SMTP credential. */
const OBJECTS_PER_STACK = TENANTS * 6;
const SUB_ACCOUNT_KEYS = "/v2/accounts/{account_id}/sub-accounts/{sub_account_id}/api-keys";

let svc: TestService;
let dataDir: string;
const stacks: TestStack[] = [];

afterAll(async () => {
  for (const t of stacks) await t.dispose();
  await svc?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("same project and stack name, one account: two sets of objects; a crashed run's rerun replays its own", async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-two-"));
  svc = await startService({ dataDir });
  const control = controlClient(svc);
  const baseline = new Set(serviceObjects(await control.dumpState()).map((o) => o.id));
  const created = async () => serviceObjects(await control.dumpState()).filter((o) => !baseline.has(o.id));
  const devStack = async () => {
    const t = await createTestStack({
      programDir: PROGRAM,
      stackName: "dev",
      config: { ...svc.config(), tenants: { value: String(TENANTS) } },
    });
    stacks.push(t);
    return t;
  };
  const mine = await devStack();
  const theirs = await devStack();
  expect(theirs.stateDir).not.toBe(mine.stateDir);

  await mine.up();
  const mineObjects = await stateObjects(mine);
  expect(mineObjects).toHaveLength(OBJECTS_PER_STACK);

  // The other stack's first up dies while the service holds its first key creation's answer
  // (committed, not yet returned), like a CI runner killed mid-run.
  await control.injectFault({ method: "POST", path: SUB_ACCOUNT_KEYS, kind: "delay-after", delayMs: 20_000 });
  let finished = false;
  const crashed = theirs.up().then(
    () => "succeeded",
    (e: Error) => e.message,
  );
  void crashed.then(() => (finished = true));
  const mineIds = new Set(mineObjects.map((o) => o.id));
  const theirFirstKey = async () =>
    (await control.dumpState()).api_keys.find((k) => !baseline.has(k.id) && !mineIds.has(k.id));
  await until("the other stack's first key, or its up to end", async () => finished || !!(await theirFirstKey()));
  // An up that ended without a key of its own replayed this stack's creations: show what it took.
  if (finished) expect((await stateObjects(theirs)).filter((o) => mineIds.has(o.id))).toEqual([]);
  const heldKey = (await theirFirstKey())!;
  expect(killProvider(theirs)).toBeGreaterThan(0);
  expect(await crashed).not.toBe("succeeded");
  await control.clearFaults();

  const rerun = await theirs.up();
  expect(rerun.summary.result).toBe("succeeded");

  const theirObjects = await stateObjects(theirs);
  // Nothing shared, nothing lost, nothing twice: the service holds exactly the two stacks' objects.
  expect(theirObjects.filter((o) => mineIds.has(o.id))).toEqual([]);
  expect(theirObjects).toHaveLength(OBJECTS_PER_STACK);
  expect(byKind(await created())).toEqual(byKind([...mineObjects, ...theirObjects]));
  // The rerun replayed the creation the crash interrupted instead of making a second key.
  expect(theirObjects.map((o) => o.id)).toContain(heldKey.id);
  // What keeps them apart: equal URNs, a salt each, drawn once and kept across the crash.
  expect(await stackSaltOf(mine)).toMatch(/^[\w-]{22}$/);
  expect(await stackSaltOf(theirs)).not.toBe(await stackSaltOf(mine));
});
