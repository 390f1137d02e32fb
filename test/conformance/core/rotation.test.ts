// Rotation on a schedule with an overlap (provider/core/rotating), driven the way the engine drives
// a provider — check with the state's inputs, diff, update when diff says so — with the real ApiKey
// declaration and HTTP client against the emulator on loopback. The emulator's clock is advanced
// through its control surface and the provider is given the same offset (TXMAIL_CLOCK_OFFSET_SECONDS,
// rotating/clock.ts). Each `up` is a provider process of its own, as each `pulumi up` is.
import { closeAccount, openAccount } from "../../../support/emulatorAccount";
import { createClient, type TxmailClient } from "../../../provider/client";
import type { AnyDeclaration, Props } from "../../../provider/core/declaration";
import type { Provider } from "../../../provider/core/factory";
import { apiKey as apiKeySpec } from "../../../provider/resources/apiKey";
import { readForImport } from "../../../provider/core/importRead";
import { ApiKeyWithSecret, paths } from "../../../provider/api";
import type { EmulatorControl } from "../../../emulator/control";
import type { RunningEmulator } from "../../../emulator/server";
import { saidOnStderr } from "../../../support/stderr";
import { until } from "../../../support/processes";
import { type InitFailure, isInitFailure } from "../../../provider/core/initFailure";

// Many requests per test on 2 shared cores at load averages past 15: bounded generously.
jest.setTimeout(120_000);

const DAY = 86_400_000;
const SALT = "salt-of-the-rotating-stack";
const urn = (name: string) => `urn:pulumi:dev::rot::pulumi-nodejs:dynamic/txmail:ApiKey::${name}`;

let emu: RunningEmulator;
let control: EmulatorControl;
let client: TxmailClient;

beforeAll(async () => {
  ({ emu, control, client } = await openAccount());
});

afterAll(async () => {
  delete process.env.TXMAIL_CLOCK_OFFSET_SECONDS;
  await closeAccount(emu);
});

/** Moves the emulator's clock, and the provider's with it. */
async function advance(ms: number): Promise<void> {
  const { offsetMs } = await control.advanceClock(ms);
  process.env.TXMAIL_CLOCK_OFFSET_SECONDS = String(offsetMs / 1000);
}

/** A provider process of its own (a run). */
function run(): Provider {
  let made: Provider | undefined;
  jest.isolateModules(() => {
    const factory = require("../../../provider/core/factory") as typeof import("../../../provider/core/factory");
    const api = require("../../../provider/core/clientApi") as typeof import("../../../provider/core/clientApi");
    made = factory.makeProvider(apiKeySpec as unknown as AnyDeclaration, api.apiFor);
  });
  return made!;
}

interface State {
  id: string;
  outs: Props;
}

const program = (name: string, rotation: unknown): Props => ({
  label: `rotating ${name}`,
  scopes: ["messages:send:all"],
  rotation,
  __urn: urn(name),
  __stackSalt: SALT,
});

async function checked(p: Provider, olds: Props, news: Props): Promise<Props> {
  const r = await p.check(olds, news);
  if (!r.inputs) throw new Error(JSON.stringify(r.failures));
  return r.inputs;
}

async function firstUp(news: Props): Promise<State> {
  const p = run();
  return p.create(await checked(p, {}, news));
}

/** One `pulumi up` of a resource in the state: what diff said, and the state after. */
async function up(state: State, news: Props, p: Provider = run()) {
  const inputs = await checked(p, state.outs, news);
  const diff = await p.diff(state.id, state.outs, inputs);
  if (diff.replaces && diff.replaces.length > 0) throw new Error(`unexpected replacement: ${diff.replaces.join()}`);
  if (!diff.changes) return { diff, state };
  const { outs } = await p.update(state.id, state.outs, inputs);
  // The engine's wire format has no `undefined` (the dynamic face fails the update on one).
  expect(Object.entries(outs).filter(([, v]) => v === undefined)).toEqual([]);
  return { diff, state: { id: state.id, outs } };
}

const liveKeys = async (label: string) =>
  (await control.dumpState()).api_keys.filter((k) => k.label === label).map((k) => k.id);

/** Whether the service takes a secret key: `GET /v2/ping` with it. */
async function accepted(secret: unknown): Promise<boolean | number> {
  const c = createClient({ apiKey: String(secret), accountId: emu.accountId, baseUrl: emu.baseUrl, rateLimit: false });
  try {
    await c.ping();
    return true;
  } catch (err) {
    return (err as { status?: number }).status ?? false;
  }
}

const SCHEDULE = { every: "30d", overlap: "7d" };

test("a due rotation makes the next key and keeps the previous; after the overlap the previous is revoked (401)", async () => {
  const news = program("a", SCHEDULE);
  let state = await firstUp(news);
  const first = { id: state.id, secret: state.outs.secretKey };
  expect(state.outs).toMatchObject({ currentId: first.id, rotations: 0 });
  expect(Date.parse(String(state.outs.nextRotationAt)) - Date.parse(String(state.outs.rotatedAt))).toBe(30 * DAY);

  // Not due yet: a no-op.
  expect((await up(state, news)).diff.changes).toBe(false);

  await advance(30 * DAY + 60_000);
  const rotated = await up(state, news);
  expect(rotated.diff).toMatchObject({ changes: true, replaces: [] });
  expect(rotated.diff.diffs).toEqual(["secretKey"]); // what changes; not `rotation`, which replaceOnChanges may name
  state = rotated.state;
  expect(state.id).toBe(first.id); // the resource keeps its id: the current object is an output
  expect(state.outs.currentId).not.toBe(first.id);
  expect(state.outs).toMatchObject({ rotations: 1, previousId: first.id, previousSecretKey: first.secret });
  expect(state.outs.secretKey).not.toBe(first.secret);
  expect(Date.parse(String(state.outs.previousRevokeAt)) - Date.parse(String(state.outs.rotatedAt))).toBe(7 * DAY);
  expect(Date.parse(String(state.outs.nextRotationAt)) - Date.parse(String(state.outs.rotatedAt))).toBe(30 * DAY);
  expect((await liveKeys("rotating a")).sort()).toEqual([first.id, state.outs.currentId].sort());
  expect(await accepted(state.outs.secretKey)).toBe(true);
  expect(await accepted(first.secret)).toBe(true); // the overlap: both work

  // Within the overlap: nothing to do.
  await advance(6 * DAY);
  expect((await up(state, news)).diff.changes).toBe(false);

  await advance(DAY + 60_000);
  const revoked = await up(state, news);
  expect(revoked.diff.diffs).toEqual(["previousSecretKey"]);
  state = revoked.state;
  expect(state.outs.previousId).toBeUndefined();
  expect(state.outs.previousSecretKey).toBeUndefined();
  expect(state.outs.previousRevokeAt).toBeUndefined();
  expect(await liveKeys("rotating a")).toEqual([state.outs.currentId]);
  expect(await accepted(first.secret)).toBe(401);
  expect(await accepted(state.outs.secretKey)).toBe(true);

  // The resource's delete deletes what it owns.
  await run().delete(state.id, state.outs);
  expect(await liveKeys("rotating a")).toEqual([]);
});

test("an early rotation (TXMAIL_ROTATE_OLDER_THAN) makes a key older than the period due now; without it nothing is due", async () => {
  const news = program("early", SCHEDULE);
  const state = await firstUp(news);
  await advance(2 * DAY);
  // Two days old, its schedule due in 28: a plain up does nothing.
  expect((await up(state, news)).diff.changes).toBe(false);
  // Asked for keys older than 3 days: still nothing.
  process.env.TXMAIL_ROTATE_OLDER_THAN = "3d";
  try {
    expect((await up(state, news)).diff.changes).toBe(false);
    process.env.TXMAIL_ROTATE_OLDER_THAN = "1d";
    const early = await up(state, news);
    expect(early.diff.diffs).toEqual(["secretKey"]);
    expect(early.state.outs).toMatchObject({ rotations: 1, previousId: state.id });
    expect((await liveKeys("rotating early")).sort()).toEqual([state.id, early.state.outs.currentId].sort());
    // The new key is fresh: asking again rotates nothing more.
    expect((await up(early.state, news)).diff.changes).toBe(false);
    process.env.TXMAIL_ROTATE_OLDER_THAN = "1week";
    await expect(up(early.state, news)).rejects.toThrow(
      /TXMAIL_ROTATE_OLDER_THAN must be a whole number of days or hours/,
    );
  } finally {
    delete process.env.TXMAIL_ROTATE_OLDER_THAN;
  }
});

test("a change of the schedule alone makes no key; a legacy string still replaces", async () => {
  const news = program("b", SCHEDULE);
  const state = await firstUp(news);
  const changed = await up(state, program("b", { every: "60d", overlap: "1d" }));
  expect(changed.diff).toMatchObject({ changes: true, replaces: [], diffs: ["rotation"] });
  expect(await liveKeys("rotating b")).toEqual([state.id]);
  expect(Date.parse(String(changed.state.outs.nextRotationAt)) - Date.parse(String(state.outs.rotatedAt))).toBe(
    60 * DAY,
  );
  // From a legacy trigger to a schedule: no key either.
  const legacy = await firstUp(program("c", "2026-01"));
  expect(legacy.outs.nextRotationAt).toBeUndefined();
  const p = run();
  const scheduled = await up(legacy, program("c", SCHEDULE), p);
  expect(scheduled.diff.replaces).toEqual([]);
  expect(scheduled.state.outs).toMatchObject({ currentId: legacy.id, rotations: 0 });
  expect(await liveKeys("rotating c")).toEqual([legacy.id]);
  // The legacy trigger, unchanged: a changed string replaces.
  const q = run();
  const inputs = await checked(q, legacy.outs, program("c", "2026-02"));
  expect((await q.diff(legacy.id, legacy.outs, inputs)).replaces).toEqual(["rotation"]);
});

test("a rotation killed after the service committed its key, rerun: the same key, never a third", async () => {
  const news = program("d", SCHEDULE);
  const state = await firstUp(news);
  await advance(30 * DAY + 60_000);
  // The connection drops after the service committed the new key (the client retries under the
  // same key), and the run is killed before its outputs are saved: the state is the old one.
  await control.injectFault({ method: "POST", path: "/v2/accounts/{account_id}/api-keys", kind: "drop-after" });
  const killed = await up(state, news);
  await control.clearFaults();
  expect(await liveKeys("rotating d")).toHaveLength(2);
  const rerun = await up(state, news);
  expect(rerun.state.outs.currentId).toBe(killed.state.outs.currentId);
  expect(rerun.state.outs.secretKey).toBe(killed.state.outs.secretKey);
  expect((await liveKeys("rotating d")).sort()).toEqual([state.id, rerun.state.outs.currentId].sort());
  // And once more after both were recorded: nothing to do.
  expect((await up(rerun.state, news)).diff.changes).toBe(false);
});

test("a rotation due while the previous still lives revokes it before making the next: never three live", async () => {
  const news = program("h", SCHEDULE);
  let state = await firstUp(news);
  await advance(30 * DAY + 60_000);
  state = (await up(state, news)).state;
  const older = String(state.outs.previousId);
  // No up between the end of the overlap and the next rotation: the previous still lives when it is due.
  await advance(30 * DAY + 60_000);
  // The next key's create held once the service committed it: what lives while the run waits (a run
  // killed there leaves exactly that until its rerun).
  const held = await control.injectFault({
    method: "POST",
    path: "/v2/accounts/{account_id}/api-keys",
    kind: "delay-after",
    delayMs: 5_000,
  });
  const rotating = up(state, news);
  await until("the next key's create", async () =>
    (await control.faults()).some((f) => f.id === held.id && f.fired > 0),
  );
  const whileHeld = await liveKeys("rotating h");
  const rotated = (await rotating).state;
  await control.clearFaults();
  expect(whileHeld.sort()).toEqual([String(state.outs.currentId), String(rotated.outs.currentId)].sort());
  expect(rotated.outs).toMatchObject({ rotations: 2, previousId: state.outs.currentId });
  expect((await liveKeys("rotating h")).sort()).toEqual(whileHeld);
  expect(whileHeld).not.toContain(older);
});

test("a killed rotation rerun after the 5-minute secret replay: a new key, the killed run's reported, not taken", async () => {
  const news = program("k", SCHEDULE);
  const state = await firstUp(news);
  await advance(30 * DAY + 60_000);
  const killed = await up(state, news); // its outputs never saved
  await advance(6 * 60_000); // the service no longer replays the new key's secret (idempotency rule 7)
  const { value: rerun, text } = await saidOnStderr(() => up(state, news));
  const lost = String(killed.state.outs.currentId);
  expect(rerun.state.outs.currentId).not.toBe(lost);
  expect(rerun.state.outs).toMatchObject({ rotations: 1, previousId: state.id });
  // The killed run's key is live and named by no state: reported with how to delete it, never deleted.
  expect(text).toContain(`likely leftover: ApiKey ${lost}`);
  expect((await liveKeys("rotating k")).sort()).toEqual([state.id, lost, String(rerun.state.outs.currentId)].sort());
  expect(text).not.toContain(String(killed.state.outs.secretKey));
});

/** The init failure `made` rejects with (provider/core/initFailure.ts); any other outcome fails the test. */
async function recovered(made: Promise<unknown>): Promise<InitFailure> {
  const outcome = await made.then(
    (x) => x,
    (e: unknown) => e,
  );
  if (!isInitFailure(outcome)) throw new Error(`expected an init failure, got ${JSON.stringify(outcome)}`);
  return outcome;
}

test("a killed first create, then a new label: recovered on its schedule as it is; the next up updates it", async () => {
  const news = program("r", SCHEDULE);
  const killed = await firstUp(news); // its outputs never saved
  const relabelled = { ...news, label: "rotating r, relabelled" };
  const p = run();
  const failure = await recovered(p.create(await checked(p, {}, relabelled)));
  expect(failure.id).toBe(killed.id);
  // What the engine records: the object as it is, as a first object on its schedule.
  expect(failure.properties).toMatchObject({
    label: "rotating r",
    currentId: killed.id,
    rotations: 0,
    secretKey: killed.outs.secretKey,
    nextRotationAt: killed.outs.nextRotationAt,
  });
  const next = await up({ id: failure.id, outs: failure.properties }, relabelled);
  expect(next.diff).toMatchObject({ changes: true, replaces: [] });
  expect(next.state.outs).toMatchObject({ label: "rotating r, relabelled", currentId: killed.id, rotations: 0 });
  expect(await liveKeys("rotating r, relabelled")).toEqual([killed.id]);
});

test("a rotation killed after the service committed, then a new label: the successor recovered with the rotated state", async () => {
  const news = program("s", SCHEDULE);
  const state = await firstUp(news);
  await advance(30 * DAY + 60_000);
  const killed = await up(state, news); // its outputs never saved
  const successor = String(killed.state.outs.currentId);
  const relabelled = { ...news, label: "rotating s, relabelled" };
  const p = run();
  const inputs = await checked(p, state.outs, relabelled);
  expect((await p.diff(state.id, state.outs, inputs)).changes).toBe(true);
  // The rotation's create proves the killed rotation's key through its key and hands it back as it
  // is; the update fails with the whole rotated state (an update's init failure: the engine keeps
  // the old inputs with these outputs).
  const failure = await recovered(p.update(state.id, state.outs, inputs));
  expect(failure.id).toBe(state.id);
  expect(failure.properties).toMatchObject({
    currentId: successor,
    rotations: 1,
    previousId: state.id,
    secretKey: killed.state.outs.secretKey,
    previousSecretKey: state.outs.secretKey,
  });
  // The next up updates the successor (the current key) to the program's label: no third key.
  const next = await up({ id: state.id, outs: failure.properties }, relabelled);
  expect(next.state.outs).toMatchObject({ currentId: successor, rotations: 1, label: "rotating s, relabelled" });
  expect((await liveKeys("rotating s, relabelled")).sort()).toEqual([state.id, successor].sort());
});

test("a previous deleted out of band is dropped by refresh, and the next rotation is fine", async () => {
  const news = program("e", SCHEDULE);
  let state = await firstUp(news);
  await advance(30 * DAY + 60_000);
  state = (await up(state, news)).state;
  await client.delete(`/v2/accounts/${emu.accountId}/api-keys/${String(state.outs.previousId)}`);
  const refreshed = await run().read(state.id, state.outs);
  expect(refreshed.id).toBe(state.id);
  expect(refreshed.props?.previousId).toBeUndefined();
  expect(refreshed.props?.previousSecretKey).toBeUndefined();
  state = { id: state.id, outs: refreshed.props! };
  expect((await up(state, news)).diff.changes).toBe(false);
  await advance(30 * DAY + 60_000);
  const next = await up(state, news);
  expect(next.state.outs).toMatchObject({ rotations: 2, previousId: state.outs.currentId });
  expect((await liveKeys("rotating e")).sort()).toEqual([state.outs.currentId, next.state.outs.currentId].sort());
});

test("a current key revoked out of band shows at refresh; the next up makes its successor", async () => {
  const news = program("f", SCHEDULE);
  let state = await firstUp(news);
  await advance(30 * DAY + 60_000);
  state = (await up(state, news)).state;
  const revoked = String(state.outs.currentId);
  await client.delete(`/v2/accounts/${emu.accountId}/api-keys/${revoked}`);
  const { value: refreshed, text } = await saidOnStderr(() => run().read(state.id, state.outs));
  expect(text).toContain("revoked or deleted out of band");
  expect(text).not.toContain(String(state.outs.previousSecretKey)); // never a secret in what is said
  expect(refreshed.id).toBe(state.id);
  expect(refreshed.props).toMatchObject({ currentGone: true, secretKey: "", previousId: state.outs.previousId });
  state = { id: state.id, outs: refreshed.props! };
  const healed = await up(state, news);
  expect(healed.diff.changes).toBe(true);
  expect(healed.state.outs.currentId).not.toBe(revoked);
  expect(healed.state.outs.previousId).toBe(state.outs.previousId); // its overlap still runs
  expect(healed.state.outs.currentGone).toBeUndefined();
  expect(Object.keys(healed.state.outs).filter((k) => k.startsWith("__"))).toEqual([]); // no identity in outputs
  expect((await liveKeys("rotating f")).sort()).toEqual(
    [String(state.outs.previousId), String(healed.state.outs.currentId)].sort(),
  );
});

test("an imported key given a schedule rotates from when it was made; it stays live for the overlap", async () => {
  // A key made outside the stack, its secret held by senders the stack does not know of.
  const made = await client.post(
    paths.apiKeys(emu.accountId),
    { label: "rotating i", scopes: ["messages:send:all"] },
    ApiKeyWithSecret,
  );
  const imported = (await readForImport(apiKeySpec as unknown as AnyDeclaration, run(), made.data.id))!;
  expect(imported.props.secretKey).toBe(""); // shown only at creation: the import cannot bring it
  const news = program("i", SCHEDULE);
  let state: State = { id: imported.id, outs: { ...imported.props, __urn: news.__urn } };

  // Not 30 days old: adding the schedule makes no key, and times the rotation from the key's createdAt.
  let next = await up(state, news);
  expect(next.diff.changes).toBe(true);
  expect(next.state.outs).toMatchObject({ currentId: made.data.id, rotatedAt: made.data.created_at });
  expect(await liveKeys("rotating i")).toEqual([made.data.id]);
  state = next.state;

  await advance(30 * DAY + 60_000);
  next = await up(state, news);
  state = next.state;
  expect(state.outs).toMatchObject({ rotations: 1, previousId: made.data.id, previousSecretKey: "" });
  expect(await accepted(state.outs.secretKey)).toBe(true); // a secret under management at last
  expect(await accepted(made.data.secret_key)).toBe(true); // the imported key's senders keep working
  expect((await liveKeys("rotating i")).sort()).toEqual([made.data.id, state.outs.currentId].sort());

  await advance(7 * DAY + 60_000);
  state = (await up(state, news)).state;
  expect(await accepted(made.data.secret_key)).toBe(401);
  expect(await liveKeys("rotating i")).toEqual([state.outs.currentId]);
});

test("a schedule that is no schedule fails check naming the field and the rule", async () => {
  const p = run();
  const bad = await p.check({}, program("g", { every: "30 days", overlap: "7d" }));
  expect(bad.failures).toEqual([
    {
      property: "rotation.every",
      reason: "rotation.every: must be a whole number of days or hours, such as 30d or 12h",
    },
  ]);
  const long = await p.check({}, program("g", { every: "7d", overlap: "7d" }));
  expect(long.failures?.[0]?.reason).toBe(
    "rotation.overlap: must be shorter than every (7d): at most two credentials are live at once",
  );
});
