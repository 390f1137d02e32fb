// SQLite (node:sqlite) in WAL mode, in a data directory, or in memory without one. Every mutation
// runs in one transaction (`tx`); WAL + synchronous=NORMAL survives a process kill (kill -9) with
// every committed transaction intact (only an OS crash or power loss could lose the last ones).
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

export const SCHEMA_VERSION = 1;

const DB_FILE = "emulator.sqlite";
/** SQLite's companions of the database file in WAL mode. */
const DB_COMPANIONS = ["-wal", "-shm"];

/**
 * The data directory holds secrets in plain text — webhook and route signing secrets and SMTP
 * passwords in the database, the server secret, the bootstrap key in bootstrap.json — so only its
 * owner may enter it (0700) or read its files (0600), whatever the umask (usually 022, which
 * leaves new files 0644 and directories 0755). SQLite creates its files with the umask's mode but
 * gives the -wal and -shm files the database file's mode, so the database file is created 0600
 * before SQLite opens it. A directory or files left too open by an older emulator, or a directory
 * made beforehand with `mkdir -p`, are tightened: DIR is the emulator's own (README: `--data DIR`).
 */
export function makePrivateDataDir(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const file = join(dataDir, DB_FILE);
  if (!existsSync(file)) closeSync(openSync(file, "a", 0o600));
  for (const f of [file, ...DB_COMPANIONS.map((suffix) => file + suffix)]) if (existsSync(f)) chmodSync(f, 0o600);
  return file;
}

export class Db {
  readonly sql: DatabaseSync;
  private depth = 0;

  constructor(dataDir?: string) {
    this.sql = new DatabaseSync(dataDir ? makePrivateDataDir(dataDir) : ":memory:");
    if (dataDir) this.sql.exec("PRAGMA journal_mode = WAL");
    this.sql.exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF; PRAGMA busy_timeout = 5000;");
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS objects (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        account_id TEXT,
        name TEXT,
        lookup TEXT,
        data TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS objects_list ON objects (kind, account_id, seq);
      CREATE UNIQUE INDEX IF NOT EXISTS objects_name ON objects (kind, account_id, name) WHERE name IS NOT NULL;
      CREATE UNIQUE INDEX IF NOT EXISTS objects_lookup ON objects (lookup) WHERE lookup IS NOT NULL;
      CREATE TABLE IF NOT EXISTS receptions (
        account_id TEXT NOT NULL,
        at INTEGER NOT NULL,
        count INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS receptions_by_account ON receptions (account_id, at);
      CREATE TABLE IF NOT EXISTS idempotency (
        account_id TEXT NOT NULL,
        idem_key TEXT NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        body_hash TEXT NOT NULL,
        state TEXT NOT NULL,
        status INTEGER,
        body TEXT,
        encrypted INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        lease_until INTEGER,
        replay_until INTEGER,
        PRIMARY KEY (account_id, idem_key)
      );
    `);
    const v = this.getMeta("schema_version");
    if (v === undefined) this.setMeta("schema_version", String(SCHEMA_VERSION));
    else if (Number(v) !== SCHEMA_VERSION)
      throw new Error(`data dir has schema version ${v}, expected ${SCHEMA_VERSION}`);
  }

  /** Runs `fn` in one transaction (nested calls join the outer one); rolls back on any throw. */
  tx<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.sql.exec("BEGIN IMMEDIATE");
    this.depth++;
    try {
      const out = fn();
      this.depth--;
      this.sql.exec("COMMIT");
      return out;
    } catch (e) {
      this.depth--;
      this.sql.exec("ROLLBACK");
      throw e;
    }
  }

  getMeta(k: string): string | undefined {
    const row = this.sql.prepare("SELECT v FROM meta WHERE k = ?").get(k) as { v: string } | undefined;
    return row?.v;
  }

  setMeta(k: string, v: string): void {
    this.sql.prepare("INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v").run(k, v);
  }

  close(): void {
    if (this.sql.isOpen) this.sql.close();
  }
}
