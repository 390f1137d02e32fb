// A fleet's first run on an empty PostgreSQL state backend (issue 40): every `pulumi` run that opens
// the backend creates its table when it finds none, and two runs doing that at the same moment
// make PostgreSQL fail one of them. Here both runners of a two-runner matrix and all four shards
// start at once, on a backend with no table yet (a table name of its own per round, the backend
// URL's `table` parameter: the same empty state a new database has): no shard may fail. On a
// quiet machine the shards' first opens are spread over a second or two and the race's window is
// milliseconds, so this server makes the window wide: its CREATE TABLE waits 3 s after making the
// table, before its transaction commits (an event trigger at the command's end). Every shard that
// opens the backend meanwhile finds no table, creates it too, and fails on the first one's catalog
// row once that commits — as the engine does when the race is lost. So every round has losers, and
// each says in the fleet's output that it retried. Previews: they open
// the backend, create the shard stacks and run the engine like a first `up`, without the
// service's writes, which the race does not depend on.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify } from "yaml";
import { startPostgres, type PostgresServer } from "../../../support/postgres";
import { startService, type TestService } from "../../../support/service";
import { runFleet, type FleetRun } from "../../../support/fleetCli";

jest.setTimeout(10 * 60_000);

/**
 * One round: the trigger makes its race certain (most shards lose it; with retries off, this round
 * fails), so a second round runs the same race again and proves nothing more.
 */
const ROUNDS = 1;
const SHARDS = ["shard-001", "shard-002", "shard-003", "shard-004"];
const TENANTS = ["t1", "t2", "t3", "t4"];
/** Every CREATE TABLE waits 3 s before its transaction commits, its catalog rows made but not yet visible. */
const SLOW_CREATE_TABLE = `
CREATE FUNCTION slow_create_table() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_sleep(3);
END
$$;

CREATE EVENT TRIGGER slow_create_table ON ddl_command_end WHEN TAG IN ('CREATE TABLE')
  EXECUTE FUNCTION slow_create_table();

`;

let pg: PostgresServer;
let svc: TestService;
let root: string;

beforeAll(async () => {
  [pg, svc] = await Promise.all([startPostgres({ initSql: SLOW_CREATE_TABLE }), startService()]);
  root = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-fleet-first-"));
  const tenants = TENANTS.map((name) => ({ name, website: `${name}.example.com` }));
  fs.writeFileSync(path.join(root, "tenants.yaml"), stringify({ tenants }));
  const placed = await runFleet(["place", "--shard-size", "1"], { cwd: root, stateDir: path.join(root, "state"), svc });
  expect(placed.code).toBe(0);
});

afterAll(async () => {
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

it(`both runners and all four shards start at once on an empty backend, ${ROUNDS} rounds: no shard fails`, async () => {
  const retries: string[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const backendUrl = `${pg.url}&table=first_run_${round}`;
    const runs = await Promise.all([runner(round, 1, backendUrl), runner(round, 2, backendUrl)]);
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
      retries.flat().join("\n") +
      "\n",
  );
  // The race was met (the trigger makes it so) and each loser said so, naming itself and its try.
  for (const said of retries) expect(said.length).toBeGreaterThan(0);
  for (const line of retries.flat()) expect(line).toMatch(/^\[shard-00[1-4]\] .*: retry [1-4] of 4 in \d+\.\d s$/);
});
