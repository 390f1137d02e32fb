// What the fleet command prints: one line when a shard starts and ends, the errors it reports, a
// periodic line for the shards still running, and the final table. Plain lines (no cursor tricks),
// so CI logs read the same as a terminal.
import type { ShardResult } from "./workerLane";
import { changed, type StepCounts } from "./stepCounts";

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

export function countsLine(c: StepCounts): string {
  return `${c.created} created, ${c.updated} updated, ${c.replaced} replaced, ${c.deleted} deleted, ${c.same} unchanged, ${c.failed} failed`;
}

export function shardDoneLine(r: ShardResult, finished: number, total: number, failedSoFar: number): string {
  const outcome = r.ok ? "done" : "FAILED";
  const why = r.ok ? "" : ` — ${r.error ?? "see the errors above"} (engine log: ${r.logFile})`;
  return `[${r.stackName}] ${outcome} in ${seconds(r.durationMs)}: ${countsLine(r.counts)}${why} · overall ${finished}/${total} shards finished, ${failedSoFar} failed`;
}

export function runningLine(
  running: Map<string, StepCounts>,
  finished: number,
  total: number,
  elapsedMs: number,
): string {
  const parts = [...running].map(([stack, c]) => `${stack} ${c.same + changed(c) + c.failed} steps`);
  return `… ${seconds(elapsedMs)}: ${finished}/${total} shards finished; running: ${parts.join(", ") || "none"}`;
}

/** The summary table: one row per shard, then the totals. */
export function summaryTable(results: readonly ShardResult[], notRun: readonly string[]): string {
  const head = ["shard", "result", "created", "updated", "replaced", "deleted", "unchanged", "failed", "duration"];
  const row = (r: ShardResult) => [
    r.stackName,
    r.ok ? "ok" : "FAILED",
    ...[r.counts.created, r.counts.updated, r.counts.replaced, r.counts.deleted, r.counts.same, r.counts.failed].map(
      String,
    ),
    seconds(r.durationMs),
  ];
  const sum = (f: keyof StepCounts) => String(results.reduce((n, r) => n + r.counts[f], 0));
  const failedShards = results.filter((r) => !r.ok).length;
  const rows = [
    head,
    ...results.map(row),
    ...notRun.map((s) => [s, "not run", "", "", "", "", "", "", ""]),
    [
      "total",
      failedShards ? `${failedShards} FAILED` : "ok",
      sum("created"),
      sum("updated"),
      sum("replaced"),
      sum("deleted"),
      sum("same"),
      sum("failed"),
      "",
    ],
  ];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [fmt(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(fmt)].join("\n");
}

/** The likely leftovers the shards' providers reported (objects not proven their own, left alone), if any. */
export function leftoversLine(results: readonly ShardResult[]): string | undefined {
  const leftovers = results.flatMap((r) => (r.leftovers ?? []).map((l) => `${r.stackName}: ${l}`));
  if (leftovers.length === 0) return undefined;
  return (
    `${leftovers.length} likely leftover(s) reported — objects the provider could not prove its own, not ` +
    `touched (the warnings above say why, and how to delete one): ${leftovers.join(", ")}`
  );
}
