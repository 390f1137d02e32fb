// Every object of the service in one table: accounts, API keys, domains, routes, webhooks, SMTP
// credentials, suppressions, users, account members and messages. `seq` gives the stable list
// order, `name` the per-account unique name (a domain name, a member's email), `lookup` a global
// unique lookup (an API key's secret hash, a user's email).
import type { StatementSync } from "node:sqlite";
import type { Db } from "./db";
import { STORED_TYPES } from "./generated/stored";

/**
 * What a stored row is (mostly its record's `object` value; no resource kind, provider/api/kinds.ts)
 * and the section of the state dump (GET /_emulator/state) that lists it; users are not dumped (the
 * members' section names them). Each handler file says what it stores (its `STORED`); the dump's
 * sections and its type (emulator/control.ts) derive from this union of them, which gen-kinds.js
 * writes as a literal so that the store imports no handler (the handlers use the store).
 */
export const DUMP_SECTIONS = STORED_TYPES;

/** What a stored row is: `route`, `credential_smtp`, … */
export type ObjectType = keyof typeof DUMP_SECTIONS;

export interface Row<T> {
  seq: number;
  id: string;
  type: ObjectType;
  account_id: string | null;
  data: T;
}

/** A row as SQLite returns it: the column keeps its first name, `kind` (existing data directories have it). */
interface RawRow {
  seq: number;
  id: string;
  kind: ObjectType;
  account_id: string | null;
  data: string;
}

const toRow = <T>(r: RawRow | undefined): Row<T> | undefined =>
  r && { seq: r.seq, id: r.id, type: r.kind, account_id: r.account_id, data: JSON.parse(r.data) as T };

export class Objects {
  private readonly s: Record<string, StatementSync>;

  constructor(private readonly db: Db) {
    const p = (q: string) => db.sql.prepare(q);
    this.s = {
      insert: p("INSERT INTO objects (id, kind, account_id, name, lookup, data) VALUES (?, ?, ?, ?, ?, ?)"),
      update: p("UPDATE objects SET data = ? WHERE id = ?"),
      get: p("SELECT seq, id, kind, account_id, data FROM objects WHERE id = ? AND kind = ?"),
      byName: p("SELECT seq, id, kind, account_id, data FROM objects WHERE kind = ? AND account_id = ? AND name = ?"),
      byLookup: p("SELECT seq, id, kind, account_id, data FROM objects WHERE lookup = ? AND kind = ?"),
      after: p(
        "SELECT seq, id, kind, account_id, data FROM objects WHERE kind = ? AND account_id = ? AND seq > ? ORDER BY seq LIMIT ?",
      ),
      before: p(
        "SELECT seq, id, kind, account_id, data FROM objects WHERE kind = ? AND account_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
      ),
      allOf: p("SELECT seq, id, kind, account_id, data FROM objects WHERE kind = ? AND account_id = ? ORDER BY seq"),
      count: p("SELECT count(*) AS n FROM objects WHERE kind = ? AND account_id = ?"),
      del: p("DELETE FROM objects WHERE id = ?"),
      dump: p("SELECT seq, id, kind, account_id, data FROM objects WHERE kind != 'message' ORDER BY seq"),
      dumpMessages: p("SELECT seq, id, kind, account_id, data FROM objects WHERE kind = 'message' ORDER BY seq"),
      delAccountType: p("DELETE FROM objects WHERE kind = ? AND account_id = ?"),
    };
  }

  insert<T>(
    type: ObjectType,
    id: string,
    accountId: string | null,
    data: T,
    name?: string | null,
    lookup?: string | null,
  ): void {
    this.s.insert!.run(id, type, accountId, name ?? null, lookup ?? null, JSON.stringify(data));
  }

  update<T>(id: string, data: T): void {
    this.s.update!.run(JSON.stringify(data), id);
  }

  get<T>(type: ObjectType, id: string): Row<T> | undefined {
    return toRow<T>(this.s.get!.get(id, type) as RawRow | undefined);
  }

  byName<T>(type: ObjectType, accountId: string, name: string): Row<T> | undefined {
    return toRow<T>(this.s.byName!.get(type, accountId, name) as RawRow | undefined);
  }

  byLookup<T>(type: ObjectType, lookup: string): Row<T> | undefined {
    return toRow<T>(this.s.byLookup!.get(lookup, type) as RawRow | undefined);
  }

  /** Up to `limit` rows after `seq` (ascending), or before it (descending). */
  page<T>(type: ObjectType, accountId: string, dir: "after" | "before", seq: number, limit: number): Row<T>[] {
    const st = dir === "after" ? this.s.after! : this.s.before!;
    return (st.all(type, accountId, seq, limit) as unknown as RawRow[]).map((r) => toRow<T>(r)!);
  }

  all<T>(type: ObjectType, accountId: string): Row<T>[] {
    return (this.s.allOf!.all(type, accountId) as unknown as RawRow[]).map((r) => toRow<T>(r)!);
  }

  count(type: ObjectType, accountId: string): number {
    return (this.s.count!.get(type, accountId) as { n: number }).n;
  }

  delete(id: string): void {
    this.s.del!.run(id);
  }

  deleteAllOf(type: ObjectType, accountId: string): void {
    this.s.delAccountType!.run(type, accountId);
  }

  dump(includeMessages: boolean): Row<unknown>[] {
    const rows = this.s.dump!.all() as unknown as RawRow[];
    const msgs = includeMessages ? (this.s.dumpMessages!.all() as unknown as RawRow[]) : [];
    return [...rows, ...msgs].map((r) => toRow<unknown>(r)!);
  }
}
