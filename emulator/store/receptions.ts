// Receptions (accepted messages, one per recipient) per account and time, for sub-account usage.
import type { StatementSync } from "node:sqlite";
import type { Db } from "./db";

export class Receptions {
  private readonly add: StatementSync;
  private readonly sum: StatementSync;
  constructor(db: Db) {
    this.add = db.sql.prepare("INSERT INTO receptions (account_id, at, count) VALUES (?, ?, ?)");
    this.sum = db.sql.prepare(
      "SELECT coalesce(sum(count), 0) AS n FROM receptions WHERE account_id = ? AND at >= ? AND at < ?",
    );
  }
  record(accountId: string, at: number, count: number): void {
    this.add.run(accountId, at, count);
  }
  count(accountId: string, from: number, to: number): number {
    return Number((this.sum.get(accountId, from, to) as { n: number }).n);
  }
}
