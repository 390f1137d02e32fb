import {
  BACKEND_RACE_RETRIES,
  backendRaceDelayMs,
  isBackendTableRace,
  withoutBackendPassword,
} from "../../../fleet/backendRace";

// The engine's error as the Automation API passes it on (the command line, then the CLI's stderr),
// for a run that opened an empty PostgreSQL backend at the same moment as another (seen in the
// fleet's PostgreSQL e2e: pkg/backend/diy/backend.go and backend/diy/postgres/bucket.go, lib/pq 1.12).
const URL = "postgres://txmail:s3cret-pw@127.0.0.1:40123/fleet?sslmode=disable";
const commandError = (cause: string) =>
  [
    "code: 255",
    " stdout: ",
    ` stderr: error: unable to open state database "${URL}": failed to create table pulumi_state: ${cause}`,
  ].join("\n");

describe("a shard run that lost the race to create the backend's table", () => {
  it.each([
    [
      "a duplicate in pg_type (23505)",
      'pq: duplicate key value violates unique constraint "pg_type_typname_nsp_index" (23505)',
    ],
    [
      "a duplicate in pg_class (the index)",
      'pq: duplicate key value violates unique constraint "pg_class_relname_nsp_index" (23505)',
    ],
    ["the table already there (42P07)", 'pq: relation "pulumi_state" already exists (42P07)'],
    ["the index already there, lib/pq without codes", 'pq: relation "pulumi_state_key_prefix_idx" already exists'],
  ])("is recognised: %s", (_, cause) => {
    expect(isBackendTableRace(commandError(cause))).toBe(true);
  });

  it("is recognised in the CLI's own words (its URL's password shown as [credential])", () => {
    const seen =
      'error: unable to open state database "postgres://postgres:[credential]@127.0.0.1:35343/postgres?sslmode=disable&table=t1": ' +
      'failed to create table t1: pq: duplicate key value violates unique constraint "pg_type_typname_nsp_index" (23505)';
    expect(isBackendTableRace(seen)).toBe(true);
  });

  it.each([
    ["a stack lock", "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end"],
    [
      "the server down",
      `error: unable to open state database "${URL}": failed to ping PostgreSQL: dial tcp 127.0.0.1:40123: connect: connection refused`,
    ],
    [
      "no right to create the table",
      `error: unable to open state database "${URL}": failed to create table pulumi_state: pq: permission denied for schema public (42501)`,
    ],
    [
      "a duplicate key in the state table itself",
      'error: pq: duplicate key value violates unique constraint "pulumi_state_pkey" (23505)',
    ],
    ["a failed update", "error: update failed"],
  ])("is not claimed for other errors: %s", (_, message) => {
    expect(isBackendTableRace(message)).toBe(false);
  });

  it("waits a short, growing, jittered time, at most 4 s before the last of its retries", () => {
    expect(BACKEND_RACE_RETRIES).toBe(4);
    expect(backendRaceDelayMs(1, () => 0)).toBe(250);
    expect(backendRaceDelayMs(2, () => 0)).toBe(500);
    expect(backendRaceDelayMs(1, () => 0.5)).toBe(375);
    expect(backendRaceDelayMs(BACKEND_RACE_RETRIES, () => 0.999)).toBeLessThanOrEqual(4000);
  });
});

describe("the backend's URL in a shard's error", () => {
  it("keeps the user and host but masks the password", () => {
    const shown = withoutBackendPassword(commandError("pq: boom"));
    expect(shown).not.toContain("s3cret-pw");
    expect(shown).toContain("postgres://txmail:***@127.0.0.1:40123/fleet");
  });

  it("leaves a URL without a password as it is", () => {
    expect(withoutBackendPassword('open "postgres://127.0.0.1:5432/db"')).toBe('open "postgres://127.0.0.1:5432/db"');
  });
});
