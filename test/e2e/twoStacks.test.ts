// Two independent stacks with the same project and stack name (two engineers' local `dev` stacks,
// each with its own file backend) on one account, on the real engine and CLI, on each face: each
// gets its own objects (the URNs are equal, the stack salts are not), and when one removes its
// objects and adds them back with other values within the service's record lifetime — its creates
// then meet their own earlier keys with another payload (422) — the other stack's objects are
// never deleted, taken over or changed (provider/core/operations/proof.ts). The proof itself, every
// path of it (a killed create, a 5xx, a 409, an expired key secret), is the generic provider's, below
// both faces: test/conformance/core/ownership.test.ts.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { StateDump } from "../../emulator/control";
import { controlClient, serviceObjects } from "../../support/control";
import { createTestStack, FACES, type Face, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";
import { stackSaltOf, stateObjects } from "../../support/stackState";

jest.setTimeout(10 * 60_000);

const PROGRAM = path.join(__dirname, "programs", "shared");
/** The API key, the sub account, the tenant's sub account, bootstrap key and webhook, and the route that stays. */
const OBJECTS_PER_STACK = 6;

let svc: TestService;
let dataDir: string;
const stacks: TestStack[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-two-"));
  svc = await startService({ dataDir });
});

afterAll(async () => {
  for (const t of stacks) await t.dispose();
  await svc?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The service's records of these ids, by id, as the emulator stores them. */
function recordsOf(dump: StateDump, ids: Set<string>): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const section of Object.values(dump)) {
    if (!Array.isArray(section)) continue;
    for (const record of section as Array<Record<string, unknown>>) {
      if (typeof record.id === "string" && ids.has(record.id)) found.set(record.id, record);
    }
  }
  return found;
}

describe.each(FACES)("%s face", (face: Face) => {
  test("same names, one account: a stack re-adding its objects with other values never touches the other's", async () => {
    const control = controlClient(svc);
    const devStack = async () => {
      const t = await createTestStack({ programDir: PROGRAM, stackName: "dev", face, config: svc.config() });
      stacks.push(t);
      return t;
    };
    const theirs = await devStack();
    const mine = await devStack();
    expect(mine.stateDir).not.toBe(theirs.stateDir);

    await theirs.up();
    await mine.up();
    const theirIds = new Set((await stateObjects(theirs)).map((o) => o.id));
    const myFirst = (await stateObjects(mine)).map((o) => o.id);
    expect(theirIds.size).toBe(OBJECTS_PER_STACK);
    expect(myFirst).toHaveLength(OBJECTS_PER_STACK);
    expect(myFirst.filter((id) => theirIds.has(id))).toEqual([]); // equal URNs, a salt each
    expect(await stackSaltOf(mine)).not.toBe(await stackSaltOf(theirs));
    const before = recordsOf(await control.dumpState(), theirIds);
    expect(before.size).toBe(OBJECTS_PER_STACK);

    // Removed, then added back with other values updated in place: the same keys, other payloads.
    await mine.stack.setConfig("present", { value: "false" });
    await mine.up();
    expect((await stateObjects(mine)).map((o) => o.kind)).toEqual(["Route"]);
    await mine.stack.setAllConfig({ present: { value: "true" }, variant: { value: "-2" } });
    const readded = mine.log().length;
    expect((await mine.up()).summary.result).toBe("succeeded");

    // The other stack's objects: all alive, every field as it was; nothing in both states.
    const dump = await control.dumpState();
    expect(recordsOf(dump, theirIds)).toEqual(before);
    const myIds = (await stateObjects(mine)).map((o) => o.id);
    expect(myIds).toHaveLength(OBJECTS_PER_STACK);
    // New objects, but for the route that stayed.
    expect(myIds.filter((id) => theirIds.has(id))).toEqual([]);
    expect(myIds.filter((id) => myFirst.includes(id))).toHaveLength(1);
    // Each re-added object is new (the earlier ones were this stack's, and are gone): no leftover, no take-over.
    expect(mine.log().slice(readded)).not.toMatch(/taken over|likely leftover/);
    const live = new Set(serviceObjects(dump).map((o) => o.id));
    for (const id of [...theirIds, ...myIds]) expect(live.has(id)).toBe(true);
    const refresh = await theirs.refresh();
    expect(Object.keys(refresh.summary.resourceChanges ?? {}).filter((k) => k !== "same")).toEqual([]);
  });
});
