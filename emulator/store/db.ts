// SQLite (node:sqlite) in WAL mode, in a data directory, or in memory without one. Every mutation
// runs in one transaction (`tx`); WAL + synchronous=NORMAL survives a process kill (kill -9) with
// every committed transaction intact (only an OS crash or power loss could lose the last ones).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

export const SCHEMA_VERSION = 1;

export class Db {
  readonly sql: DatabaseSync;
  private depth = 0;

  constructor(dataDir?: string) {
    if (dataDir) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    this.sql = new DatabaseSync(dataDir ? join(dataDir, "emulator.sqlite") : ":memory:");
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
