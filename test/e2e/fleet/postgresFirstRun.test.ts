// A fleet's first run on an empty PostgreSQL state backend (issue 40): every `pulumi` run that opens
// the backend creates its table when it finds none, and two runs doing that at the same moment
// make PostgreSQL fail one of them. Here both runners of a two-runner matrix and all four shards
// start at once, on a backend with no table yet (a table name of its own per round, the backend
// URL's `table` parameter: the same empty state a new database has): no shard may fail. On a
// quiet machine the shards' first opens are spread over a second or two, on a loaded one over
// more, and the race's window is milliseconds, so this server holds it open until the race is met:
// its CREATE TABLE, the table made but its transaction not yet committed (an event trigger at the
// command's end), waits for an advisory lock the test holds. Every shard that opens the backend
// meanwhile finds no table, creates it too, and waits on the first one's catalog row. The test
// watches pg_stat_activity from its own session and lets go of the lock once two sessions wait on
// that CREATE TABLE (bounded: the round fails, saying so, if they do not): the first commits, the
// second fails on its catalog row — as the engine does when the race is lost. So every round has
// a loser, and each loser says in the fleet's output that it retried. Previews: they open the
// backend, create the shard stacks and run the engine like a first `up`, without the service's
// writes, which the race does not depend on.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "pg";
import { stringify } from "yaml";
import { startPostgres, type PostgresServer } from "../../../support/postgres";
import { startService, type TestService } from "../../../support/service";
import { runFleet, type FleetRun } from "../../../support/fleetCli";

jest.setTimeout(10 * 60_000);

/**
 * One round: the hold makes its race certain (a shard loses it; with retries off, this round
 * fails), so a second round runs the same race again and proves nothing more.
 */
const ROUNDS = 1;
const SHARDS = ["shard-001", "shard-002", "shard-003", "shard-004"];
const TENANTS = ["t1", "t2", "t3", "t4"];
/** The advisory lock the test holds while the shards' CREATE TABLE wait. */
const HOLD_LOCK = 40;
/** How many sessions must be waiting on the CREATE TABLE before the test lets it go: the race met. */
const WAITING_NEEDED = 2;
/** How long the test holds it at most, waiting for them (the shards start within seconds, slower on a loaded machine). */
const HOLD_MAX_MS = 120_000;
const POLL_MS = 100;
/**
 * Every CREATE TABLE, its catalog rows made but not yet visible to others (its transaction not
 * committed), waits for the test's advisory lock.
 */
const HELD_CREATE_TABLE = `
CREATE FUNCTION held_create_table() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(${HOLD_LOCK});
END
$$;

CREATE EVENT TRIGGER held_create_table ON ddl_command_end WHEN TAG IN ('CREATE TABLE')
  EXECUTE FUNCTION held_create_table();

`;

let pg: PostgresServer;
let svc: TestService;
let root: string;
/** The test's own session: it holds the lock and watches pg_stat_activity. */
let db: Client;

beforeAll(async () => {
  [pg, svc] = await Promise.all([startPostgres({ initSql: HELD_CREATE_TABLE }), startService()]);
  db = new Client({ connectionString: pg.url });
  await db.connect();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-fleet-first-"));
  const tenants = TENANTS.map((name) => ({ name, website: `${name}.example.com` }));
  fs.writeFileSync(path.join(root, "tenants.yaml"), stringify({ tenants }));
  const placed = await runFleet(["place", "--shard-size", "1"], { cwd: root, stateDir: path.join(root, "state"), svc });
  expect(placed.code).toBe(0);
});

afterAll(async () => {
  await db?.end();
  await Promise.all([svc?.close(), pg?.close()]);
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** One runner of the matrix on its own machine (work dir, PULUMI_HOME, TMPDIR), on the round's backend. */
function runner(round: number, index: 1 | 2, backendUrl: string): Promise<FleetRun> {
  const dir = path.join(root, `round-${round}`, `runner-${index}`);
  fs.mkdirSync(path.join(dir, "tmp"), { recursive: true });
  for (const f of ["tenants.yaml", "tenants.placement.json"]) fs.copyFileSync(path.join(root, f), path.join(dir, f));
  return runFleet(["preview", "--frozen", "--runner", `${index}/2`, "--parallel", "2"], {
    cwd: dir,
    stateDir: path.join(dir, "state"),
    svc,
    env: {
      PULUMI_BACKEND_URL: backendUrl,
      PULUMI_HOME: path.join(dir, "pulumi-home"),
      TMPDIR: path.join(dir, "tmp"),
      TXMAIL_RATE_SHARE: "1/2",
    },
  });
}

/** The sessions running this table's CREATE TABLE, and what each waits on. */
interface Creator {
  pid: string;
  waiting: string;
  seconds: string;
}

type Hold = { ok: true; creators: Creator[]; heldMs: number } | { ok: false; why: string };

/**
 * Polls pg_stat_activity (bounded: HOLD_MAX_MS, and at most one poll per POLL_MS) until
 * WAITING_NEEDED sessions wait on a lock in this table's CREATE TABLE: the first on the test's
 * lock, the others on its uncommitted catalog rows. Gives up early when the fleet runs end.
 */
async function untilCreatorsWait(table: string, runsEnded: Promise<unknown>): Promise<Hold> {
  const start = Date.now();
  let ended = false;
  void runsEnded.then(() => (ended = true));
  let creators: Creator[] = [];
  const waiting = () => creators.filter((c) => c.waiting.startsWith("Lock/"));
  for (let poll = 0; poll <= HOLD_MAX_MS / POLL_MS && Date.now() - start < HOLD_MAX_MS && !ended; poll++) {
    creators = (
      await db.query<Creator>(
        `SELECT pid::text, coalesce(wait_event_type || '/' || wait_event, 'running') AS waiting,
              round(extract(epoch FROM now() - query_start)::numeric, 1)::text AS seconds
         FROM pg_stat_activity
        WHERE pid <> pg_backend_pid() AND state = 'active' AND query ILIKE '%create table%${table}%'`,
      )
    ).rows;
    if (waiting().length >= WAITING_NEEDED) return { ok: true, creators, heldMs: Date.now() - start };
    await Promise.race([runsEnded, new Promise((r) => setTimeout(r, POLL_MS))]);
  }
  const seen = creators.map((c) => `pid ${c.pid}: ${c.waiting} for ${c.seconds} s`).join("; ") || "none";
  return {
    ok: false,
    why:
      `${waiting().length} of the ${WAITING_NEEDED} sessions needed waited on CREATE TABLE ${table} ` +
      `${ended ? "when the fleet runs ended" : `after ${Date.now() - start} ms`} (sessions in it: ${seen}): ` +
      "the race was not met",
  };
}

it(`both runners and all four shards start at once on an empty backend, ${ROUNDS} rounds: no shard fails`, async () => {
  const retries: string[][] = [];
  const holds: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const table = `first_run_${round}`;
    const backendUrl = `${pg.url}&table=${table}`;
    await db.query(`SELECT pg_advisory_lock(${HOLD_LOCK})`);
    const all = Promise.all([runner(round, 1, backendUrl), runner(round, 2, backendUrl)]);
    let hold: Hold;
    try {
      hold = await untilCreatorsWait(
        table,
        all.catch(() => undefined),
      );
    } catch (e) {
      hold = { ok: false, why: `watching pg_stat_activity failed: ${(e as Error).message}` };
    } finally {
      await db.query(`SELECT pg_advisory_unlock(${HOLD_LOCK})`);
    }
    const runs = await all;
    if (!hold.ok) {
      const out = runs.map((r, i) => `--- runner ${i + 1} (exit ${r.code}):\n${r.stdout}\n${r.stderr}`).join("\n");
      throw new Error(`round ${round}: ${hold.why}\n${out}`);
    }
    holds.push(
      `round ${round}: held ${hold.heldMs} ms, then ` +
        hold.creators.map((c) => `pid ${c.pid} ${c.waiting} for ${c.seconds} s`).join(", "),
    );
    const said: string[] = [];
    for (const run of runs) {
      if (run.code !== 0) throw new Error(`round ${round}: fleet exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
      expect(run.stdout + run.stderr).not.toContain(pg.password);
      said.push(...run.stdout.split("\n").filter((l) => l.includes("the state backend's table was being created")));
    }
    const rows = { ...runs[0].rows, ...runs[1].rows };
    for (const shard of SHARDS) expect(rows[shard]).toMatchObject({ result: "ok", failed: 0 });
    retries.push(said);
  }
  process.stderr.write(
    `[fleet/postgres first run] ${ROUNDS} rounds of 4 shards, retries per round: ${retries.map((r) => r.length).join(", ")}\n` +
      holds.join("\n") +
      "\n" +
      retries.flat().join("\n") +
      "\n",
  );
  // The race was met (the hold makes it so) and each loser said so, naming itself and its try.
  for (const said of retries) expect(said.length).toBeGreaterThan(0);
  // A loser is a shard's run, or the fleet command's own first read of the backend (fleet/census.ts).
  for (const line of retries.flat())
    expect(line).toMatch(/^\[(shard-00[1-4]|backend)\] .*: retry [1-4] of 4 in \d+\.\d s$/);
});
