// State written once per run (PULUMI_SKIP_CHECKPOINTS), killed outright: the engine
// then loses every edit of the killed run — creates the service committed included — and only the
// idempotency keys stand between the rerun and twins. On the real engine and CLI, file backend
// (the fleet's PostgreSQL kill test is in fleet/postgres.test.ts). The first two on both faces (the
// salt lives in a StackSalt resource or in the native provider's state); the others, which the
// generic provider and the engine decide alone, on one face each:
// - a new stack's first run creates nothing and ends with its salt saved (provider/core/freshSalt.ts);
// - a run of creates, and a run of updates, replacements and deletes, each SIGKILLed (the CLI's
//   process group, as a CI runner does) while a create has committed at the service and its answer
//   is held back; `pulumi cancel`, then the same program again: the service holds exactly what the
//   state records (0 duplicates, 0 orphans, 0 missing), with the program's values, and no process
//   of the killed run is left;
// - a run of creates killed the same way, then the program changed (fields updated in place) before
//   the rerun: the keys stand for what cannot change in place, so the rerun's creates meet the
//   killed run's keys with another payload and prove those objects their own through the keys
//   (provider/core/operations/proof.ts). Each is handed to the engine as it is, an init failure
//   (provider/core/initFailure.ts): the engine records it, secrets encrypted, and the run fails
//   saying so; the next up updates it (a recovered object's dependents wait for that run, so a
//   chain of them takes a run per link). Then again the service holds exactly what the state
//   records, with the program's values, the killed run's objects among them.
import * as path from "node:path";
import { controlClient, serviceObjects, type EmulatorControl } from "../../support/control";
import { createTestStack, FACES, REPO_ROOT, type Face, type TestStack } from "./harness";
import { onFace } from "./onFace";
import { exitOf, expectEnded, stackProcesses, until } from "../../support/processes";
import { startService, type TestService } from "../../support/service";
import { byKind, pendingOperations, stackSaltOf, stateObjects, stateOutputs } from "../../support/stackState";

jest.setTimeout(10 * 60_000);

const PROGRAM = path.join(REPO_ROOT, "test", "e2e", "programs", "rounds");
const TENANTS = 12;
/** Fewer in the second round: the rest are deleted. */
const TENANTS_AFTER = 9;
/** Per tenant: sub account, bootstrap key, route, webhook, SMTP credential. */
const OBJECTS_EACH = 5;
const FAST = { PULUMI_SKIP_CHECKPOINTS: "true" };

let svc: TestService;
let control: EmulatorControl;
const stacks: TestStack[] = [];

beforeAll(async () => {
  svc = await startService();
  control = controlClient(svc);
});

afterAll(async () => {
  for (const stack of stacks) await stack.dispose();
  await svc?.close();
});

const writes = async () => (await control.counters()).writes;

/** Ids of every object in the sub accounts named with `prefix` (the sub accounts included), alive now. */
async function madeBy(prefix: string): Promise<string[]> {
  const dump = await control.dumpState();
  const accounts = new Set(
    dump.accounts.filter((a) => a.status !== "deleted" && String(a.name).startsWith(prefix)).map((a) => a.id),
  );
  const inside = [...dump.api_keys, ...dump.routes, ...dump.webhooks, ...dump.smtp_credentials].filter((x) =>
    accounts.has(x.account_id),
  );
  return [...accounts, ...inside.map((x) => x.id)];
}

/** The service's objects in the sub accounts this stack's state names, against the state. */
async function expectServiceEqualsState(t: TestStack, round: number, tenants: number, variant = ""): Promise<void> {
  const state = await stateObjects(t);
  expect(new Set(state.map((o) => o.id)).size).toBe(state.length); // no id recorded twice
  const dump = await control.dumpState();
  const mine = new Set(state.filter((o) => o.kind === "SubAccount").map((o) => o.id));
  const service = serviceObjects(dump).filter(
    (o) =>
      mine.has(o.id) ||
      [...dump.api_keys, ...dump.routes, ...dump.webhooks, ...dump.smtp_credentials].some(
        (x) => x.id === o.id && mine.has(x.account_id),
      ),
  );
  // Every sub account this stack made is in its state: none was made twice or left behind.
  const names = dump.accounts.filter((a) => a.parent_account_id !== null && a.status !== "deleted" && a.name);
  const prefix = `${t.face}-`;
  expect(
    names
      .filter((a) => String(a.name).startsWith(prefix))
      .map((a) => a.id)
      .sort(),
  ).toEqual([...mine].sort());
  expect(byKind(service)).toEqual(byKind(state));
  expect(state).toHaveLength(tenants * OBJECTS_EACH);
  // With the program's values: the round's webhook URL and SMTP credential name everywhere.
  for (const w of dump.webhooks.filter((x) => mine.has(x.account_id))) {
    expect(w.url).toBe(`https://example.com/hooks/${round}${variant}`);
  }
  for (const a of dump.accounts.filter((x) => mine.has(x.id)))
    expect(a.website).toMatch(new RegExp(`^${t.face}-tenant-\\d+${variant}\\.example\\.com$`));
  for (const c of dump.smtp_credentials.filter((x) => mine.has(x.account_id))) expect(c.name).toBe(`app-${round}`);
  const outputs = await stateOutputs(t);
  for (const w of dump.webhooks.filter((x) => mine.has(x.account_id))) {
    expect(outputs.get(`Webhook ${w.id}`)).toMatchObject({ url: w.url });
  }
  expect(await pendingOperations(t)).toEqual([]);
}

/**
 * `pulumi up` SIGKILLed once a create of `held` has committed at the service and its answer is
 * held back, after at least `afterWrites` writes; then every process of the run must end by itself.
 */
async function upKilled(t: TestStack, held: string, afterWrites: number, expectLocked = false): Promise<void> {
  const fault = await control.injectFault({ method: "POST", path: held, kind: "delay-after", delayMs: 60_000 });
  const start = await writes();
  const child = t.spawnCli(["up", "--yes", "--skip-preview"]);
  await until(
    `a held create and ${afterWrites} writes`,
    async () =>
      child.exitCode !== null ||
      (((await control.faults()).find((f) => f.id === fault.id)?.fired ?? 0) > 0 &&
        (await writes()) - start >= afterWrites),
    180_000,
  );
  expect(child.exitCode).toBeNull(); // still running: the kill lands mid-run
  const running = stackProcesses(t);
  process.kill(-child.pid!, "SIGKILL");
  await exitOf(child);
  // They end by themselves (their parent changed, or the engine's address no longer answers); the
  // bound only keeps a failure from hanging, and is generous so a loaded machine does not trip it.
  await expectEnded(() => [...running, ...stackProcesses(t)], 60_000);
  await control.clearFaults();
  // The file backend keeps the killed run's lock: the engine's remedy, as docs/guide/behaviour.md says.
  if (expectLocked) {
    expect(await exitOf(t.spawnCli(["up", "--yes", "--skip-preview"]))).not.toBe(0);
    expect(t.log()).toMatch(/the stack is currently locked.*`pulumi cancel`/s);
  }
  expect(await exitOf(t.spawnCli(["cancel", "--yes"]))).toBe(0);
}

describe.each(FACES)("%s face, state written once per run", (face: Face) => {
  let t: TestStack;
  let salt: string | undefined;

  it("a new stack's first run creates nothing and saves its salt", async () => {
    t = await createTestStack({
      programDir: PROGRAM,
      name: `fast-${face}`,
      face,
      env: FAST,
      packageLayout: "installed",
      config: { ...svc.config(), tenants: { value: "2" }, round: { value: "0" }, prefix: { value: `${face}-` } },
    });
    stacks.push(t);
    const before = await writes();
    expect(await exitOf(t.spawnCli(["up", "--yes", "--skip-preview"]))).not.toBe(0);
    expect(t.log()).toContain("not created: the stack's salt was drawn in this run");
    expect(await writes()).toBe(before);
    salt = await stackSaltOf(t);
    expect(salt).toMatch(/^[\w-]{22,}$/);
    expect(await stateObjects(t)).toEqual([]);
  });

  // The next run is the first to create: killed, then run again, both with the salt saved above.
  it("killed during creates: the rerun replays what the killed run made, no twin", async () => {
    await t.stack.setConfig("tenants", { value: String(TENANTS) });
    await upKilled(t, "/v2/accounts/*/webhooks", 20, face === "dynamic");
    // The killed run's creates are not in state (saved once per run), yet they exist.
    expect(await stateObjects(t)).toEqual([]);
    const made = await madeBy(`${face}-`);
    expect(made.length).toBeGreaterThan(0);
    expect(await exitOf(t.spawnCli(["up", "--yes", "--skip-preview"]))).toBe(0);
    expect(await stackSaltOf(t)).toBe(salt);
    await expectServiceEqualsState(t, 0, TENANTS);
    // Replayed, not remade: every object the killed run made is one the state now records.
    const recorded = new Set((await stateObjects(t)).map((o) => o.id));
    expect(made.filter((id) => !recorded.has(id))).toEqual([]);
  });

  // Below, the generic provider and the engine decide alone (the faces translate the same calls;
  // the salt, which differs, is above): one face each.
  onFace(face, "native")(
    "killed during updates, replacements and deletes: the rerun converges, no twin, nothing left",
    async () => {
      await t.stack.setConfig("round", { value: "1" });
      await t.stack.setConfig("tenants", { value: String(TENANTS_AFTER) });
      // Replacing an SMTP credential creates its successor first: hold that create's answer.
      await upKilled(t, "/v2/accounts/*/smtp-credentials", 10);
      expect(await exitOf(t.spawnCli(["up", "--yes", "--skip-preview"]))).toBe(0);
      await expectServiceEqualsState(t, 1, TENANTS_AFTER);
    },
  );

  onFace(face, "dynamic")(
    "killed during creates, then changed before the rerun: the killed run's objects are recovered, then updated, no twin",
    async () => {
      const before = new Set((await stateObjects(t)).map((o) => o.id));
      await t.stack.setConfig("tenants", { value: String(TENANTS + 4) });
      await upKilled(t, "/v2/accounts/*/webhooks", 8);
      const made = (await madeBy(`${face}-`)).filter((id) => !before.has(id));
      expect(made.length).toBeGreaterThan(0);
      await t.stack.setConfig("variant", { value: "-b" });
      const rerun = t.log().length;
      // The rerun meets the killed run's creations under their keys, with other values: proven its
      // own by the service's answer to those keys, and recorded as they are — the run fails saying
      // so. The next up updates them; a recovered sub account's webhook is met only then, and
      // recovered in turn (its url changed too). With `--continue-on-error` the engine goes on with
      // what does not depend on a failed resource, so each link of that chain takes one run (the
      // engine otherwise stops starting steps at the first failure: docs/guide/behaviour.md).
      const up = () => exitOf(t.spawnCli(["up", "--yes", "--skip-preview", "--continue-on-error"]));
      const exits = [await up()];
      expect(exits[0]).not.toBe(0);
      // What the engine recorded from the init failures, one-time secrets among them (the replays'
      // webhook signing secrets, made under 5 minutes ago): in state only encrypted, said nowhere.
      const secretsInState = [...(await t.exportText(true)).matchAll(/"plaintext":\s*"\\"([^"\\]{8,})\\""/g)].map(
        (m) => m[1]!,
      );
      expect(secretsInState.length).toBeGreaterThan(0);
      const plain = `${await t.exportText(false)}\n${t.log()}`;
      expect(secretsInState.filter((x) => plain.includes(x))).toEqual([]);
      for (let run = 1; run < 3 && exits.at(-1) !== 0; run++) exits.push(await up());
      expect(exits.at(-1)).toBe(0);
      const said = t.log().slice(rerun);
      expect(said).toMatch(
        /recovered, not yet updated: an interrupted run created it .*run `pulumi up` again to update it/,
      );
      expect(said).not.toMatch(/likely leftover/);
      await expectServiceEqualsState(t, 0, TENANTS + 4, "-b");
      const recorded = new Set((await stateObjects(t)).map((o) => o.id));
      expect(made.filter((id) => !recorded.has(id))).toEqual([]);
    },
  );
});
