// A busy account on the real engine: the account's limit is shared with the application that sends
// the tenants' mail, so `pulumi up` in CI meets long stretches of 429s. Reproduces the report: the
// first 20 requests of a run are answered `429 Retry-After: 1` (emulator fault injection on every
// path and method, like a rate-limiting proxy) while two creates are in flight. Before, the run failed
// after 8 attempts with one of three resources created; a 429 now waits without using up attempts.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { controlClient, serviceObjects } from "../../support/control";
import { createTestStack, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(10 * 60_000);

const PROGRAM = path.join(__dirname, "programs", "busy");
const STORM = { method: "*", path: "/v2/*", kind: "rate-limit" as const, retryAfter: 1 };

let svc: TestService;
let t: TestStack | undefined;
let dataDir: string;

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-busy-"));
  svc = await startService({ dataDir });
});

afterEach(async () => {
  await controlClient(svc).clearFaults();
  await t?.dispose();
  t = undefined;
  await svc.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function createdObjects(): Promise<Array<{ kind: string; id: string }>> {
  return serviceObjects(await controlClient(svc).dumpState()).filter((o) => o.kind !== "ApiKey");
}

test("20 × 429 (Retry-After: 1) across parallel creates: pulumi up succeeds, every object once", async () => {
  t = await createTestStack({ programDir: PROGRAM, name: "busy", config: svc.config() });
  const control = controlClient(svc);
  await control.injectFault({ ...STORM, count: 20 });
  const started = Date.now();
  const up = await t.up();
  const seconds = (Date.now() - started) / 1000;
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges?.create).toBe(5); // the stack, its txmail stack salt + 3 resources
  const [fault] = await control.faults();
  expect(fault).toMatchObject({ fired: 20, remaining: 0 }); // the storm really hit the run
  const objects = await createdObjects();
  expect(objects.map((o) => o.kind).sort()).toEqual(["SubAccount", "SubAccount", "SubAccountApiKey"]);
  const exported = JSON.parse(await t.exportText(false)) as { deployment: { resources: Array<{ id?: string }> } };
  const stateIds = new Set(exported.deployment.resources.map((r) => r.id));
  expect(objects.every((o) => stateIds.has(o.id))).toBe(true);
  process.stderr.write(`[busyAccount] pulumi up through 20 × 429: ${seconds.toFixed(1)} s\n`);
});

test("the wait is bounded: TXMAIL_BUSY_WAIT_SECONDS=2 against an endless storm fails, naming the setting", async () => {
  t = await createTestStack({
    programDir: PROGRAM,
    name: "busy-bound",
    config: svc.config(),
    env: { TXMAIL_BUSY_WAIT_SECONDS: "2" },
  });
  await controlClient(svc).injectFault({ ...STORM, count: 100_000 });
  const failure = await t.up().then(
    () => "succeeded",
    (e: Error) => e.message,
  );
  expect(failure).toMatch(/failed with HTTP 429/);
  expect(failure).toMatch(/would exceed the 2 s budget for waiting on a busy account \(TXMAIL_BUSY_WAIT_SECONDS\)/);
  expect(await createdObjects()).toEqual([]);
});
