// Runs every benchmark and writes bench/RESULTS.md (machine, date, command, figures, goals).
// Run: bash scripts/bench.sh   (BENCH_TENANTS, BENCH_REPS, BENCH_CREATES narrow it down)
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/root";
import { benchBusyAccount, busyAccountSection } from "./busyAccount";
import { benchEmulator, type EmulatorBenchResult } from "./emulator";
import { benchRateLimit, type RateLimitResult } from "./rateLimit";
import { benchStormRecovery, stormRecoverySection } from "./stormRecovery";
import { benchUp, PROGRAMS, SERVICE_PROGRAMS, type UpResult } from "./up";

function pulumiVersion(): string {
  try {
    return execFileSync(path.join(REPO_ROOT, ".tools", "bin", "pulumi"), ["version"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

const ok = (good: boolean) => (good ? "met" : "**missed**");
/** The BENCH_* settings the run was invoked with, so the command can be repeated exactly. */
const COMMAND_ENV = () => {
  const set = Object.entries(process.env).filter(([k]) => k.startsWith("BENCH_"));
  return set.length ? ` (with ${set.map(([k, v]) => `${k}=${v}`).join(" ")})` : "";
};
const REPS_TEXT = (ups: UpResult[]) => String(ups[0]?.orders.length ?? 0);

async function main(): Promise<void> {
  const started = new Date();
  // Other work on the machine skews every figure: the 1-minute load average at the start goes with them.
  const loadAverage = os.loadavg()[0]!.toFixed(1);
  const figures = await runBenchmarks();
  const lines = [
    ...header(started, loadAverage),
    ...upSection(figures.ups),
    ...rateLimitSection(figures.limit),
    ...stormRecoverySection(figures.storm),
    ...busyAccountSection(figures.busy),
    ...emulatorSection(figures.emu),
  ];
  writeResults(lines);
  appendHistory(figures.ups, started, loadAverage);
  process.stdout.write(lines.join("\n"));
}

async function runBenchmarks() {
  process.stderr.write("[bench] emulator throughput\n");
  const emu = await benchEmulator();
  process.stderr.write("[bench] 1 000 creates under the real rate limit\n");
  const limit = await benchRateLimit();
  process.stderr.write("[bench] 429 storm recovery\n");
  const storm = await benchStormRecovery();
  process.stderr.write("[bench] pulumi up while the account is busy\n");
  const busy = await benchBusyAccount();
  process.stderr.write("[bench] pulumi up vs the engine floor\n");
  const ups = await benchUp();
  return { emu, limit, storm, busy, ups };
}

function header(started: Date, loadAverage: string): string[] {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  return [
    "# Benchmark results",
    "",
    `Written by \`bash scripts/bench.sh\` on ${started.toISOString().slice(0, 10)}${COMMAND_ENV()}; this file holds only what that run measured (earlier runs: bench/HISTORY.md).`,
    `Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()};`,
    `Node ${process.version}; Pulumi ${pulumiVersion()}; everything on loopback; load average ${loadAverage} at the start.`,
    "",
  ];
}

function upSection(ups: UpResult[]): string[] {
  return [
    "## `pulumi up` of N tenants vs the engine floor",
    "",
    "Each tenant is 6 resources (sub account, bootstrap key, domain, route, webhook, SMTP credential) in a",
    "Tenant component. The floor (bench/programs/floor) is the same graph of no-op dynamic resources with",
    "every trick of the real program that is not specific to the service: its provider an installed",
    "package's module (stored in state as a short `require`), registration without debug stack traces.",
    "The naive floor (bench/programs/floor-naive) is the same graph written plainly (provider serialized by",
    "value, debug traces on), shown for comparison only. Native is the real program through the native",
    "provider (the txmail plugin: `txmail:face native`); the native floor (bench/programs/floor-native) is",
    "the floor's graph of no-op custom resources served by a plugin that runs the txmail plugin's own server",
    "code (native/server.ts) over operations that do nothing. All five programs run in every round, each the",
    "first `up` of a fresh stack, in an order that rotates from round to round (listed below); figures are",
    `medians of all ${REPS_TEXT(ups)} rounds. Goals at 50 tenants: real ≤ 1.10 × floor; native ≤ 1.0 × the (dynamic) floor.`,
    "The paired ratio is the median over rounds of the ratio within a round. API calls are the emulator's counters.",
    "",
    "| tenants | resources | floor (s) | naive floor (s) | real (s) | native floor (s) | native (s) | real ÷ floor | goal ≤ 1.10 | paired | native ÷ floor | goal ≤ 1.0 | paired | native ÷ native floor | real ÷ naive floor |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...ups.map(
      (u) =>
        `| ${u.tenants} | ${u.resources} | ${u.medians.floor} | ${u.medians["floor-naive"]} | ${u.medians.real} | ${u.medians["floor-native"]} | ${u.medians.native} | ${u.ratio} | ${ok(u.ratio <= 1.1)} | ${u.pairedRatio} | ${u.nativeRatio} | ${ok(u.nativeRatio <= 1.0)} | ${u.nativePairedRatio} | ${u.nativeFloorRatio} | ${u.naiveRatio} |`,
    ),
    "",
    "Every run, in seconds (round: order — times in that order):",
    "",
    ...ups.flatMap((u) => [
      `- ${u.tenants} tenants:`,
      ...u.orders.map(
        (order, r) => `  - round ${r + 1}: ${order.join(" → ")} — ${order.map((p) => u.runs[p][r]).join(", ")}`,
      ),
    ]),
    "",
    "API calls per phase (the first round's create; then a no-op `up` and a refresh of the last round's stack):",
    "",
    "| tenants | face | create writes | create reads | no-op up calls | refresh reads | refresh writes |",
    "|---|---|---|---|---|---|---|",
    ...ups.flatMap((u) =>
      SERVICE_PROGRAMS.map((p) => {
        const c = u.calls[p];
        return `| ${u.tenants} | ${p === "real" ? "dynamic" : "native"} | ${c.createWrites} | ${c.createReads} | ${c.noopCalls} | ${c.refreshReads} | ${c.refreshWrites} |`;
      }),
    ),
    "",
    "Peak resident memory (VmHWM, MiB) of the processes serving each program's resources during its `up`",
    "(the dynamic-provider plugin, or the native plugin), summed over those processes, largest over the rounds:",
    "",
    `| tenants | ${PROGRAMS.join(" | ")} |`,
    `|---|${PROGRAMS.map(() => "---").join("|")}|`,
    ...ups.map((u) => `| ${u.tenants} | ${PROGRAMS.map((p) => u.peakProviderRssMb[p]).join(" | ")} |`),
    "",
  ];
}

function rateLimitSection(limit: RateLimitResult): string[] {
  return [
    "## 1 000 creates under the service's rate limit (100 rps, burst 200)",
    "",
    `Through the provider's HTTP client with ${limit.concurrency} creates in flight (bench/rateLimit.ts). Share of the limit =`,
    "the fastest time the limit allows ((N − burst) / rate) ÷ the time taken. Goal ≥ 90 %, 0 errors.",
    "",
    "| creates | seconds | limit allows (s) | share of limit | goal | HTTP requests | 429s retried | errors | duplicates |",
    "|---|---|---|---|---|---|---|---|---|",
    `| ${limit.creates} | ${limit.seconds} | ${limit.idealSeconds} | ${limit.sharePercent} % | ${ok(limit.sharePercent >= 90 && limit.errors === 0)} | ${limit.requests} | ${limit.rejected429} | ${limit.errors} | ${limit.duplicates} |`,
    "",
  ];
}

function emulatorSection(emu: EmulatorBenchResult): string[] {
  return [
    "## Emulator throughput",
    "",
    `The emulator as its own process (SQLite data dir, WAL), an undici pool with ${emu.concurrency} requests in flight (bench/emulator.ts).`,
    "Goal: ≥ 5 000 GET/s and ≥ 2 000 idempotent POST/s, so the emulator never bounds the provider benchmarks.",
    "",
    "| GET /routes/{id} per s | goal | POST /routes (fresh Idempotency-Key) per s | goal | requests | non-2xx |",
    "|---|---|---|---|---|---|",
    `| ${emu.getPerSecond} | ${ok(emu.getPerSecond >= 5000)} | ${emu.postPerSecond} | ${ok(emu.postPerSecond >= 2000)} | ${emu.gets} + ${emu.posts} | ${emu.errors} |`,
    "",
    "Client request counts under injected faults (1 000 sequential creates per scenario): run",
    "`node bench/out/bench/client-requests.js` after `bash scripts/bench.sh` compiled it (see its header).",
    "",
  ];
}

/** Writes bench/RESULTS.md: these sections, then the ones other runs own. */
function writeResults(lines: string[]): void {
  // The fleet benchmark (scripts/bench.sh fleet, ~20 min) and the plugin's (bench/plugin.ts) have
  // their own runs and sections: kept as they were.
  const results = path.join(REPO_ROOT, "bench", "RESULTS.md");
  const earlier = existsSync(results) ? readFileSync(results, "utf8") : "";
  writeFileSync(results, lines.join("\n") + keptSection(earlier, "## Fleets") + keptSection(earlier, "## The plugin"));
}

/** The one place results accumulate: a dated row per size appended to the hand-written history. */
function appendHistory(ups: UpResult[], started: Date, loadAverage: string): void {
  appendFileSync(
    path.join(REPO_ROOT, "bench", "HISTORY.md"),
    ups
      .map(
        (u) =>
          `| ${started.toISOString().slice(0, 16).replace("T", " ")} | ${u.tenants} | ${u.orders.length} | ${u.medians.floor} | ${u.medians["floor-naive"]} | ${u.medians.real} | ${u.medians["floor-native"]} | ${u.medians.native} | ${u.ratio} | ${u.pairedRatio} | ${u.nativeRatio} | ${u.nativePairedRatio} | ${PROGRAMS.map((p) => u.peakProviderRssMb[p]).join(" / ")} | ${loadAverage} |\n`,
      )
      .join(""),
  );
}

/** The section of an earlier RESULTS.md whose heading starts with `heading` (up to the next section), or "". */
function keptSection(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}`);
  if (start < 0) return "";
  const next = text.indexOf("\n## ", start + 1);
  return `\n${text.slice(start + 1, next < 0 ? undefined : next + 1).trimEnd()}\n`;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
