// Runs every benchmark and writes bench/RESULTS.md (machine, date, command, figures, goals).
// Run: bash scripts/bench.sh   (BENCH_TENANTS, BENCH_REPS, BENCH_CREATES narrow it down)
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../test/e2e/harness";
import { benchEmulator } from "./emulator";
import { benchRateLimit } from "./rateLimit";
import { benchStormRecovery, stormRecoverySection } from "./stormRecovery";
import { benchUp } from "./up";

function pulumiVersion(): string {
  try {
    return execFileSync(path.join(REPO_ROOT, ".tools", "bin", "pulumi"), ["version"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

const ok = (good: boolean) => (good ? "met" : "**missed**");

async function main(): Promise<void> {
  const started = new Date();
  process.stderr.write("[bench] emulator throughput\n");
  const emu = await benchEmulator();
  process.stderr.write("[bench] 1 000 creates under the real rate limit\n");
  const limit = await benchRateLimit();
  process.stderr.write("[bench] 429 storm recovery\n");
  const storm = await benchStormRecovery();
  process.stderr.write("[bench] pulumi up vs the engine floor\n");
  const ups = await benchUp();

  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const lines = [
    "# Benchmark results",
    "",
    `Written by \`bash scripts/bench.sh\` on ${started.toISOString().slice(0, 10)}.`,
    `Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()};`,
    `Node ${process.version}; Pulumi ${pulumiVersion()}; everything on loopback.`,
    "",
    "## `pulumi up` of N tenants vs the engine floor",
    "",
    "Each tenant is 6 resources (sub account, bootstrap key, domain, route, webhook, SMTP credential) in a",
    "Tenant component; the floor is the same graph of no-op dynamic resources (bench/programs/floor),",
    `measured in the same run. Median of ${ups[0]?.floorRuns.length ?? 0} alternating runs (each the first \`up\` of a fresh stack). Goal: ≤ 1.15× the floor.`,
    "The goal is judged on the ratio of the medians; the paired ratio (median of real ÷ floor over the",
    "back-to-back pairs) is shown beside it to tell the machine's drift from the code's cost.",
    "API calls are the emulator's counters: create = 1 write per object, no-op `up` = 0, refresh ≤ 1 read per resource.",
    "",
    "| tenants | resources | floor (s) | real (s) | ratio | goal | paired ratio | create writes | create reads | no-op up calls | refresh reads | refresh writes | provider peak RSS (MiB) |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...ups.map(
      (u) =>
        `| ${u.tenants} | ${u.resources} | ${u.floorSeconds} (${u.floorRuns.join(", ")}) | ${u.realSeconds} (${u.realRuns.join(", ")}) | ${u.ratio} | ${ok(u.ratio <= 1.15)} | ${u.pairedRatio} | ${u.createWrites} | ${u.createReads} | ${u.noopCalls} | ${u.refreshReads} | ${u.refreshWrites} | ${u.peakProviderRssMb} |`,
    ),
    "",
    "The real program uses pulumi-txmail installed in its node_modules, as users get it (test/e2e/harness.ts",
    '`packageLayout: "installed"`). How the excess was removed (2026-11-23; found with the engine\'s',
    "`pulumi up --profiling` CPU profile and the program's `--cpu-prof`): it was 1.32× (10 tenants) and",
    "1.82× (50 tenants). The engine rewrites and re-serializes the whole checkpoint after every step, so",
    "whatever a resource keeps in state is paid ~2 × resources times per `up`; the program's registrations",
    "are on the critical path.",
    "1. Provider in state: each kind's provider object is the whole exports of provider/kinds/<kind>, so",
    '   Pulumi stores `require("pulumi-txmail/…")` (~250 B) instead of 2.3 KB of method source, in inputs',
    "   and outputs (50 tenants: 28 s → ~19 s).",
    "2. Registration: @pulumi/pulumi formats a source-mapped stack trace for four promises per input",
    "   property; the SDK registers with `Error.stackTraceLimit = 0` (constructing 50 tenants: 2.2 s → 0.4 s).",
    "3. State: outputs drop `id`, `__urn`, `updatedAt`; the Tenant records no outputs (one checkpoint",
    "   write per tenant less); Tenant children get a plain connection object.",
    '4. Startup: `import "pulumi-txmail"` loads 22 modules instead of 215 (no zod, undici, yaml).',
    "What remains is the checkpoint work for the service's own fields (~35 property values and 2–3",
    "secrets per resource against the floor's 8 values; secret encryption shows in the engine's",
    "checkpoint profile, ~0.6 s at 50 tenants) and the service calls themselves. On this 2-core VM the",
    "ratio moves by a few hundredths between runs: three earlier runs of this code (medians of 5) gave",
    "1.13, 1.17 and 1.19 at 50 tenants (the goal met once), 1.10, 1.07 and 1.13 at 10 (met each time).",
    "",
    "## 1 000 creates under the service's rate limit (100 rps, burst 200)",
    "",
    `Through the provider's HTTP client with ${limit.concurrency} creates in flight (bench/rateLimit.ts). Share of the limit =`,
    "the fastest time the limit allows ((N − burst) / rate) ÷ the time taken. Goal ≥ 90 %, 0 errors.",
    "",
    "| creates | seconds | limit allows (s) | share of limit | goal | HTTP requests | 429s retried | errors | duplicates |",
    "|---|---|---|---|---|---|---|---|---|",
    `| ${limit.creates} | ${limit.seconds} | ${limit.idealSeconds} | ${limit.sharePercent} % | ${ok(limit.sharePercent >= 90 && limit.errors === 0)} | ${limit.requests} | ${limit.rejected429} | ${limit.errors} | ${limit.duplicates} |`,
    "",
    ...stormRecoverySection(storm),
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
  writeFileSync(path.join(REPO_ROOT, "bench", "RESULTS.md"), lines.join("\n"));
  process.stdout.write(lines.join("\n"));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
