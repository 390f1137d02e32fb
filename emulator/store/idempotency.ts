// Idempotency records, keyed by (account, Idempotency-Key).
import type { StatementSync } from "node:sqlite";
import type { Db } from "./db";

export interface IdemRecord {
  account_id: string;
  idem_key: string;
  method: string;
  path: string;
  body_hash: string;
  state: "in_progress" | "completed";
  status: number | null;
  body: string | null;
  encrypted: number;
  created_at: number;
  expires_at: number;
  lease_until: number | null;
  replay_until: number | null;
}

export class IdemStore {
  private readonly s: Record<"get" | "put" | "del" | "sweep" | "wipe" | "all", StatementSync>;
  constructor(db: Db) {
    const p = (q: string) => db.sql.prepare(q);
    this.s = {
      get: p("SELECT * FROM idempotency WHERE account_id = ? AND idem_key = ?"),
      put: p(`INSERT OR REPLACE INTO idempotency
        (account_id, idem_key, method, path, body_hash, state, status, body, encrypted, created_at, expires_at, lease_until, replay_until)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      del: p("DELETE FROM idempotency WHERE account_id = ? AND idem_key = ?"),
      sweep: p("DELETE FROM idempotency WHERE expires_at <= ?"),
      wipe: p("UPDATE idempotency SET body = NULL WHERE encrypted = 1 AND body IS NOT NULL AND replay_until <= ?"),
      all: p(
        "SELECT account_id, method, path, state, status, encrypted, created_at, expires_at, lease_until, replay_until FROM idempotency ORDER BY created_at",
      ),
    };
  }
  get(account: string, key: string): IdemRecord | undefined {
    return this.s.get.get(account, key) as IdemRecord | undefined;
  }
  put(r: IdemRecord): void {
    this.s.put.run(
      r.account_id,
      r.idem_key,
      r.method,
      r.path,
      r.body_hash,
      r.state,
      r.status,
      r.body,
      r.encrypted,
      r.created_at,
      r.expires_at,
      r.lease_until,
      r.replay_until,
    );
  }
  delete(account: string, key: string): void {
    this.s.del.run(account, key);
  }
  /** Drops expired records and wipes sealed secrets past their replay window. */
  sweep(now: number): void {
    this.s.sweep.run(now);
    this.s.wipe.run(now);
  }
  /** Metadata only (never keys or bodies), for the state dump. */
  summary(): unknown[] {
    return this.s.all.all();
  }
}
