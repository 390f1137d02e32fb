// What `txmail-fleet rotate` says at the end: per credential on a schedule, what the run did (from
// the state read before and the worker's outcomes after), as a table and as JSON (--json). Names,
// kinds, actions and times only: no secret and no id can reach either.
import type { PlannedCredential, RotateReport, RotatedCredential, RotationAction, RotationOutcome } from "./types";

/** What happened to each planned credential, given the outcomes of the shards that ran. */
export function rotatedCredentials(
  planned: readonly PlannedCredential[],
  outcomes: ReadonlyMap<string, RotationOutcome>,
  shards: { failed: ReadonlySet<string>; notRun: ReadonlySet<string> },
): RotatedCredential[] {
  return planned.map((c) => {
    const after = outcomes.get(c.urn);
    const action = actionOf(c, after, shards);
    const now = after ?? c;
    return {
      tenant: c.tenant,
      shard: c.shard,
      resource: c.resource,
      kind: c.kind,
      action,
      cause: action === "rotated" ? (c.due?.cause ?? null) : null,
      rotatedAt: now.rotatedAt ?? null,
      nextRotationAt: now.nextRotationAt ?? null,
      previousRevokeAt: now.previousRevokeAt ?? null,
    };
  });
}

function actionOf(
  c: PlannedCredential,
  after: RotationOutcome | undefined,
  shards: { failed: ReadonlySet<string>; notRun: ReadonlySet<string> },
): RotationAction {
  if (after && after.rotations > c.rotations) return "rotated";
  if (after && c.hasPrevious && !after.hasPrevious) return "previous revoked";
  if (!c.due) return "not due";
  if (shards.notRun.has(c.shard)) return "not run";
  // Due, and its shard ran: done, or the run failed before (or on) it. A shard that succeeded
  // without doing it decided at its own instant that it was not due after all.
  return shards.failed.has(c.shard) ? "failed" : "not due";
}

export function rotateReport(input: {
  now: number;
  olderThan?: string;
  shardsRead: number;
  ran: readonly string[];
  failed: ReadonlyArray<{ shard: string; error: string }>;
  notRun: readonly string[];
  credentials: RotatedCredential[];
}): RotateReport {
  const count = (a: RotationAction) => input.credentials.filter((c) => c.action === a).length;
  const counts = {
    rotated: count("rotated"),
    previousRevoked: count("previous revoked"),
    notDue: count("not due"),
    failed: count("failed"),
    notRun: count("not run"),
  };
  return {
    command: "rotate",
    now: new Date(input.now).toISOString(),
    olderThan: input.olderThan ?? null,
    shards: { read: input.shardsRead, ran: [...input.ran], failed: [...input.failed], notRun: [...input.notRun] },
    counts,
    credentials: input.credentials,
    exitCode: input.failed.length > 0 || input.notRun.length > 0 ? 1 : 0,
  };
}

const minute = (iso: string | null) => (iso === null ? "-" : iso.replace(/:\d\d(\.\d+)?Z$/, "Z"));

/** The table: one row per credential (tenant, resource, kind, action, rotated at, next rotation), then a count. */
export function rotateTable(report: RotateReport): string {
  const head = ["tenant", "resource", "kind", "action", "rotated at", "next rotation"];
  const rows = report.credentials.map((c) => [
    c.tenant,
    c.resource,
    c.kind,
    c.action === "rotated" && c.cause === "older than" ? "rotated (--older-than)" : c.action,
    minute(c.rotatedAt),
    minute(c.nextRotationAt),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  const { counts } = report;
  const total =
    `${report.credentials.length} credentials on a schedule: ${counts.rotated} rotated, ${counts.previousRevoked} ` +
    `previous revoked, ${counts.notDue} not due` +
    (counts.failed ? `, ${counts.failed} FAILED` : "") +
    (counts.notRun ? `, ${counts.notRun} not run (interrupted)` : "");
  if (rows.length === 0) return total;
  return [line(head), ...rows.map(line), "", total].join("\n");
}
