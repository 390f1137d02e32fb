// A fleet's first run on an empty PostgreSQL state backend. Every `pulumi` run that opens a
// `postgres://` backend first checks whether its table exists and, when it does not, creates it
// (`CREATE TABLE IF NOT EXISTS pulumi_state …` and its index). When two shards (of one runner or of
// two) open an empty database at the same moment, both see no table and both create it; PostgreSQL
// lets one commit and fails the other on its own catalog's unique index. That run ends at once,
// before it takes a stack lock or runs a step, so running it again is safe — and works, since the
// table exists now. The fleet retries exactly that failure, a few times with a short backoff; any
// other error is the shard's result as it is.

/**
 * The engine's text for that failure (pkg/backend/diy: "unable to open state database <url>:
 * failed to create table <name>: <lib/pq error>"), with the two errors a concurrent create can
 * give: a duplicate key in a system catalog's unique index (SQLSTATE 23505: pg_type or pg_class),
 * or the table or index already there (42P07).
 */
const TABLE_CREATE_RACE = new RegExp(
  String.raw`unable to open state database "[^"\n]*"(?: \(resolved to "[^"\n]*"\))?: ` +
    String.raw`failed to create table [^\s:]+: pq: ` +
    String.raw`(?:duplicate key value violates unique constraint "pg_[a-z_]+_index"(?: \(23505\))?` +
    String.raw`|relation "[^"\n]+" already exists(?: \(42P07\))?)`,
);

/** Whether a shard run failed only because another run was creating the backend's table at the same moment. */
export function isBackendTableRace(message: string): boolean {
  return TABLE_CREATE_RACE.test(message);
}

/** How many times a shard run that lost the race is run again before its failure stands. */
export const BACKEND_RACE_RETRIES = 4;

/**
 * The wait before retry `attempt` (1-based): 250 ms doubled each time, times a random factor in
 * [1, 2) so that shards which lost together do not retry together. At most 4 s before the last try.
 */
export function backendRaceDelayMs(attempt: number, random: () => number = Math.random): number {
  return Math.round(250 * 2 ** (attempt - 1) * (1 + random()));
}

/** The run's error as the shard's log and the fleet's output show it: a backend URL's password masked. */
export function withoutBackendPassword(message: string): string {
  return message.replace(/(\bpostgres(?:ql)?:\/\/[^:@\s/"]+:)[^@\s/"]+@/g, "$1***@");
}
