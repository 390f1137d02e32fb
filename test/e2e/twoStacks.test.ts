// Two independent stacks with the same project and stack name (two engineers' local `dev` stacks,
// each with its own file backend) on one account, both `up` within the service's replay window:
// each gets its own objects — the URNs are equal, the stack salts are not. A run killed and run
// again replaying its own creations (its salt saved before the creates used it) is
// interrupted.test.ts's hard stop (checkpoints after every step) and killedFastRun.test.ts's
// (state written once per run, both faces).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { controlClient, serviceObjects } from "../../support/control";
import { createTestStack, REPO_ROOT, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";
import { byKind, stackSaltOf, stateObjects } from "../../support/stackState";

jest.setTimeout(10 * 60_000);

const PROGRAM = path.join(REPO_ROOT, "bench", "programs", "tenants");
const TENANTS = 2;
/** Each tenant: sub account, bootstrap key, domain, route, webhook, SMTP credential. */
const OBJECTS_PER_STACK = TENANTS * 6;

let svc: TestService;
let dataDir: string;
const stacks: TestStack[] = [];

afterAll(async () => {
  for (const t of stacks) await t.dispose();
  await svc?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test("same project and stack name, one account: two sets of objects, a salt each", async () => {
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
  const mineIds = new Set(mineObjects.map((o) => o.id));

  // Within the replay window, the same URNs: a shared key would hand their creates my objects.
  expect((await theirs.up()).summary.result).toBe("succeeded");
  const theirObjects = await stateObjects(theirs);
  // Nothing shared, nothing lost, nothing twice: the service holds exactly the two stacks' objects.
  expect(theirObjects.filter((o) => mineIds.has(o.id))).toEqual([]);
  expect(theirObjects).toHaveLength(OBJECTS_PER_STACK);
  expect(byKind(await created())).toEqual(byKind([...mineObjects, ...theirObjects]));
  // What keeps them apart: equal URNs, a salt each.
  expect(await stackSaltOf(mine)).toMatch(/^[\w-]{22}$/);
  expect(await stackSaltOf(theirs)).not.toBe(await stackSaltOf(mine));
});
