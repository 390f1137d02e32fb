// `txmail-fleet rotate` against a no-op fleet `up` (issue goal: rotating a 1 000-tenant fleet whose
// keys are all due takes ≤ 1.2× a no-op up of the same fleet + the service's rate bound for the new
// keys: new keys ÷ the emulator's rate limit, 100 requests a second per account — every tenant's
// key is made with the parent account's key).
// N tenants (the command's defaults: native face, shard size, parallelism, file backend; each
// tenant's bootstrap key on a schedule `{ every: 30d, overlap: 7d }`) are made once with `up`,
// untimed as a measurement; then REPS rounds of:
//   - a no-op `up` (checked: exit 0, nothing created, updated, replaced or deleted, 0 writes);
//   - the emulator's clock moved 31 days (every key due; the providers get the same offset through
//     TXMAIL_CLOCK_OFFSET_SECONDS), then `rotate --json` (checked: exit 0, every tenant's key
//     rotated, one new key per tenant at the service);
// the two in turn first (rotate, then the no-op up, in odd rounds), so neither always runs right
// after the other. From the second round on a rotation also revokes the key before the previous one
// (its overlap long over): those deletes are counted apart. Each command is timed whole, as a user
// waits for it; requests are the emulator's counters for that command. Where the time goes: each
// run's CPU per kind of process (bench/profile.ts withProcessCpu: the fleet command, its workers, the
// engine, the txmail plugin; this process's own is the emulator's), the time before its shards run
// (the census and, for rotate, its reading of the shards' states) and the shards' own run times.
// Loopback only; every run bounded by the fleet's own end.
// Run: bash scripts/bench.sh fleet-rotate   (BENCH_FLEET_TENANTS=1000 BENCH_REPS=3 by default)
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify } from "yaml";
import type { CounterSnapshot } from "../emulator/counters";
import { controlClient } from "../support/control";
import type { FleetRun } from "../support/fleetCli";
import { startService } from "../support/service";
import { DEFAULT_PARALLEL, DEFAULT_SHARD_SIZE } from "../fleet/defaults";
import type { RotateReport } from "../fleet/rotate/types";
import { fleetUnderBench, tenantEntry } from "./fleet";
import { withProcessCpu } from "./profile";
import { publishSection, runBenchmark } from "./section";
import { median, round2 } from "./up";

const TENANTS = Number(process.env.BENCH_FLEET_TENANTS ?? 1000);
const REPS = Number(process.env.BENCH_REPS ?? 3);
/** The issue's bound: rotate ≤ RATIO_GOAL × a no-op up + new keys ÷ RATE_LIMIT. */
const RATIO_GOAL = 1.2;
/** The emulator's sustained rate limit per account (requests a second; a burst of 200 first). */
const RATE_LIMIT = 100;
const DAY_MS = 86_400_000;

type Command = "no-op up" | "rotate";

interface Requests {
  total: number;
  writes: number;
  /** POSTs of a sub account's key (the new keys). */
  keysMade: number;
  /** DELETEs of a sub account's key (the keys before the previous ones). */
  keysRevoked: number;
  rateLimited: number;
}

const KINDS = ["fleet command", "workers", "engine", "plugin"] as const;
type Kind = (typeof KINDS)[number];
function kindOf(args: string): Kind | "other" {
  if (/fleet[\\/]worker\.js/.test(args)) return "workers";
  if (/fleet[\\/]cli\.js/.test(args)) return "fleet command";
  if (/pulumi-resource-txmail|native[\\/]main\.js/.test(args)) return "plugin";
  if (/(^|\/)pulumi(\s|$)/.test(args)) return "engine";
  return "other";
}
/** In every process of the measured fleet runs' trees (and of no other): how withProcessCpu finds them. */
const MARK = `TXMAIL_BENCH_ROTATE=${process.pid}`;

interface Run {
  command: Command;
  round: number;
  seconds: number;
  /** CPU seconds per kind of process, and the emulator's (this process's own). */
  cpu: Record<Kind | "other" | "emulator", number>;
  /** Seconds before the shards' run (the census; rotate: also its reading of the states), from the fleet's output. */
  beforeShards: number;
  /** The shards' run times, summed (they run `parallel` at a time). */
  shardSeconds: number;
  requests: Requests;
  /** rotate: shards run, and the report's counts. */
  shardsRan?: number;
  rotated?: number;
}

const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

function requestsOf(c: CounterSnapshot): Requests {
  const count = (method: string) =>
    Object.entries(c.endpoints)
      .filter(([k]) => k.startsWith(`${method} `) && /sub-accounts\/[^/ ]+\/api-keys/.test(k))
      .reduce((n, [, v]) => n + v, 0);
  const rateLimited = Object.values(c.keys).reduce((n, k) => n + k.rateLimited, 0);
  return {
    total: c.total,
    writes: c.writes,
    keysMade: count("POST"),
    keysRevoked: count("DELETE"),
    rateLimited,
  };
}

/** Throws, with the command's output, unless the run is what the benchmark measures. */
function check(command: Command, run: FleetRun, requests: Requests): RotateReport | undefined {
  const fail = (why: string) => new Error(`${command}: ${why}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
  if (command === "no-op up") {
    const t = run.rows.total;
    if (run.code !== 0 || !t || t.created || t.updated || t.replaced || t.deleted) throw fail("not a clean no-op up");
    if (requests.writes !== 0) throw fail(`${requests.writes} writes at the service`);
    return undefined;
  }
  let report: RotateReport;
  try {
    report = JSON.parse(run.stdout) as RotateReport;
  } catch {
    throw fail("stdout is not the report's JSON");
  }
  if (run.code !== 0 || report.exitCode !== 0) throw fail(`exit ${run.code} (report ${report.exitCode})`);
  if (report.counts.rotated !== TENANTS) throw fail(`${report.counts.rotated} rotated of ${TENANTS}`);
  if (requests.keysMade !== TENANTS) throw fail(`${requests.keysMade} keys made for ${TENANTS} tenants`);
  if (/[a-z0-9]+-sk-[A-Za-z0-9]{64}/.test(run.stdout + run.stderr)) throw fail("a key's secret in the output");
  return report;
}

async function main(): Promise<void> {
  const started = new Date();
  const load = [`before: ${uptime()}`];
  const svc = await startService();
  const control = controlClient(svc);
  const { dir, project, fleet } = fleetUnderBench(svc, "rotate");
  const runs: Run[] = [];
  let upSeconds: number;
  let clockEnv: Record<string, string> = {};
  try {
    fs.mkdirSync(path.join(dir, "state"));
    // A schedule object per tenant: one shared would be written as a YAML alias, and the tenants
    // file's parser refuses a thousand aliases (its guard against a resource-exhaustion attack).
    const tenants = Array.from({ length: TENANTS }, (_, i) => {
      const t = tenantEntry(i);
      return { ...t, bootstrapKey: { ...t.bootstrapKey, rotation: { every: "30d", overlap: "7d" } } };
    });
    fs.writeFileSync(path.join(dir, "tenants.yaml"), stringify({ tenants }));
    const t0 = Date.now();
    const made = await fleet(["up"]);
    upSeconds = round2((Date.now() - t0) / 1000);
    if (made.code !== 0) throw new Error(`up: ${made.stdout}${made.stderr}`);
    load.push(`after the up (${upSeconds} s): ${uptime()}`);
    const measure = async (command: Command, round: number) => {
      if (command === "rotate") {
        const { offsetMs } = await control.advanceClock(31 * DAY_MS);
        clockEnv = { TXMAIL_CLOCK_OFFSET_SECONDS: String(offsetMs / 1000) };
      }
      await control.resetCounters();
      const own = process.cpuUsage();
      const t1 = process.hrtime.bigint();
      const [key, value] = MARK.split("=") as [string, string];
      const measured = await withProcessCpu(MARK, KINDS, kindOf, () =>
        fleet(command === "rotate" ? ["rotate", "--json"] : ["up"], { ...clockEnv, [key]: value }),
      );
      const seconds = round2(Number(process.hrtime.bigint() - t1) / 1e9);
      const used = process.cpuUsage(own);
      const run = measured.value;
      const said = `${run.stdout}\n${run.stderr}`;
      const shardSeconds = [...said.matchAll(/^\[shard-\d+\] (?:done|FAILED) in ([\d.]+)s/gm)].reduce(
        (n, m) => n + Number(m[1]),
        0,
      );
      // "<operation> finished in Xs" counts from the command's run, after its census (rotate: before its reads).
      const finished = Number(/ finished in ([\d.]+)s/.exec(said)?.[1] ?? NaN);
      // rotate: how long its reading of the shards' states took (its first line says).
      const reads = Number(/ shards read in ([\d.]+)s/.exec(said)?.[1] ?? 0);
      const cpu = {
        ...Object.fromEntries(Object.entries(measured.cpu).map(([k, v]) => [k, round2(v)])),
        emulator: round2((used.user + used.system) / 1e6),
      } as Run["cpu"];
      const requests = requestsOf(await control.counters());
      const report = check(command, run, requests);
      runs.push({
        command,
        round,
        seconds,
        cpu,
        beforeShards: round2(seconds - finished + reads),
        shardSeconds: round2(shardSeconds),
        requests,
        ...(report && { shardsRan: report.shards.ran.length, rotated: report.counts.rotated }),
      });
      process.stderr.write(
        `[bench rotate] round ${round + 1} ${command}: ${seconds} s (${round2(seconds - finished + reads)} s before its shards' run, shards ${round2(shardSeconds)} s summed; CPU ${JSON.stringify(cpu)}), ${requests.total} requests (${requests.writes} writes: ${requests.keysMade} keys made, ${requests.keysRevoked} revoked; ${requests.rateLimited} 429s)\n`,
      );
    };
    for (let round = 0; round < REPS; round++) {
      const turn: Command[] = round % 2 === 0 ? ["no-op up", "rotate"] : ["rotate", "no-op up"];
      for (const command of turn) await measure(command, round);
      load.push(`after round ${round + 1}: ${uptime()}`);
    }
  } finally {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(project, { recursive: true, force: true });
  }
  const result = { tenants: TENANTS, reps: REPS, upSeconds, runs, load };
  publishSection(section(result, started), { name: "fleet-rotate", result });
}

function section(r: { upSeconds: number; runs: Run[]; load: string[] }, started: Date): string[] {
  const of = (c: Command) => r.runs.filter((x) => x.command === c);
  const secs = (c: Command) => of(c).map((x) => x.seconds);
  const med = (c: Command) => round2(median(secs(c)));
  const rateSeconds = round2(TENANTS / RATE_LIMIT);
  const bound = round2(RATIO_GOAL * med("no-op up") + rateSeconds);
  const inRound = (c: Command, round: number) => of(c).find((x) => x.round === round)!.seconds;
  const rounds = Array.from({ length: REPS }, (_, i) => i);
  const paired = rounds.map((i) => round2(inRound("rotate", i) - inRound("no-op up", i)));
  const envSet = Object.entries(process.env).filter(([k]) => k === "BENCH_REPS" || k.startsWith("BENCH_FLEET_"));
  const command = `${envSet.map(([k, v]) => `${k}=${v} `).join("")}bash scripts/bench.sh fleet-rotate`;
  const shards = Math.ceil(TENANTS / DEFAULT_SHARD_SIZE);
  const name = (x: Run) => (x.command === "rotate" ? "`rotate --json`" : "no-op `up`");
  const row = (x: Run) =>
    `| ${x.round + 1} | ${name(x)} | ${x.seconds} | ${x.requests.total} | ${x.requests.writes} | ${x.requests.keysMade} | ${x.requests.keysRevoked} | ${x.requests.rateLimited} | ${x.shardsRan ?? ""} |`;
  const cpuTotal = (x: Run) => round2(Object.values(x.cpu).reduce((n, v) => n + v, 0));
  const cpuRow = (x: Run) =>
    `| ${x.round + 1} | ${name(x)} | ${x.beforeShards} | ${x.shardSeconds} | ${cpuTotal(x)} | ${x.cpu.engine} | ${x.cpu.plugin} | ${x.cpu.workers} | ${x.cpu["fleet command"]} | ${x.cpu.emulator} | ${x.cpu.other} |`;
  const medOf = (c: Command, f: (x: Run) => number) => round2(median(of(c).map(f)));
  const cpuParts: Array<[string, (x: Run) => number]> = [
    ["before the shards' run (s)", (x) => x.beforeShards],
    ["shards' run, summed (s)", (x) => x.shardSeconds],
    ["CPU, all (s)", cpuTotal],
    ["CPU, engine (s)", (x) => x.cpu.engine],
    ["CPU, txmail plugin (s)", (x) => x.cpu.plugin],
    ["CPU, workers: shard programs (s)", (x) => x.cpu.workers],
    ["CPU, fleet command (s)", (x) => x.cpu["fleet command"]],
    ["CPU, emulator (s)", (x) => x.cpu.emulator],
  ];
  const met = (good: boolean) => (good ? "met" : "**missed**");
  return [
    "## Fleet rotation vs a no-op fleet up (`txmail-fleet rotate`)",
    "",
    `${TENANTS} tenants (${TENANTS * 6} resources) in ${shards} shard stacks, the command's defaults (native face, shard size`,
    `${DEFAULT_SHARD_SIZE}, ${DEFAULT_PARALLEL} shards at once, file backend), each tenant's bootstrap key on a schedule`,
    `(30d, overlap 7d); made once with \`up\` (${r.upSeconds} s, not measured); then ${REPS} rounds of a no-op \`up\` and, with the`,
    "emulator's clock moved 31 days before it (every key due), `rotate --json` (in turn first). Each command timed whole;",
    "requests are the emulator's counters for that command (100 rps, burst 200 per account). From the second round on a",
    "rotation also revokes the key before the previous one (its overlap long over): the DELETEs.",
    `Run on ${started.toISOString().slice(0, 16).replace("T", " ")} UTC with \`${command}\` (bench/fleetRotate.ts):`,
    `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}; the machine was shared with other work — its load:`,
    "",
    ...r.load.map((l) => `- ${l}`),
    "",
    "| round | command | s | requests | writes | keys made | keys revoked | 429s | shards run |",
    "|---|---|---|---|---|---|---|---|---|",
    ...r.runs.map(row),
    "",
    `- medians: no-op up ${med("no-op up")} s (${secs("no-op up").join(" / ")}), rotate ${med("rotate")} s (${secs("rotate").join(" / ")}).`,
    `- rotate ≤ ${RATIO_GOAL}× no-op up + ${TENANTS} new keys ÷ ${RATE_LIMIT} rps = ${RATIO_GOAL} × ${med("no-op up")} + ${rateSeconds} = ${bound} s:`,
    `  ${med("rotate")} s — ${met(med("rotate") <= bound)} (${round2(med("rotate") / med("no-op up"))}× the no-op up). Round by round, rotate − no-op up:`,
    `  ${paired.map((x) => `${x} s`).join(" / ")}.`,
    "",
    "Where the time goes, per run: the seconds before its shards run (the census of the backend; rotate: also its",
    "reading of every shard's state, which `up` does in its census), the shards' run times summed (2 at a time), and the",
    "CPU seconds of each kind of process (read from /proc every 100 ms; the emulator's is this process's own):",
    "",
    "| round | command | before shards (s) | shards summed (s) | CPU all | engine | plugin | workers | fleet command | emulator | other |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...r.runs.map(cpuRow),
    "",
    "| median | no-op up | rotate | rotate − no-op up |",
    "|---|---|---|---|",
    ...cpuParts.map(
      ([what, f]) =>
        `| ${what} | ${medOf("no-op up", f)} | ${medOf("rotate", f)} | ${round2(medOf("rotate", f) - medOf("no-op up", f))} |`,
    ),
    "",
  ];
}

runBenchmark(main);
