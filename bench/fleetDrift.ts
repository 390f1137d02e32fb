// `txmail-fleet drift` against a no-op fleet preview (issue goal: at 1 000 tenants a drift run takes
// ≤ 1.2× a no-op preview, and the inventory sends ≤ one list request per kind per sub account).
// N tenants (the command's defaults: native face, shard size, parallelism, file backend) are made
// once with `up`, untimed as a measurement; then REPS rounds, rotating the order, of:
//   - a no-op `preview --frozen` (checked: exit 0, nothing to create, update, replace or delete);
//   - `drift --json --ignore <the emulator's root key>` (checked: exit 0, no drift, nothing
//     unmanaged, every shard checked, 0 writes at the service);
//   - `drift --no-inventory` (the refresh preview alone), to tell the inventory's share of the time.
// Each command is timed whole, as a user waits for it. Requests come from the emulator's counters
// for that command (the request log is bounded below what 1 000 tenants send): writes, list
// requests per kind (against the kinds a sub account holds × sub accounts) and 429s.
// Loopback only; every run bounded by the fleet's own end.
// Run: bash scripts/bench.sh fleet-drift   (BENCH_FLEET_TENANTS=1000 BENCH_REPS=3 by default)
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify } from "yaml";
import { endpointKey, endpointOf } from "../provider/api/endpoints";
import { OBJECT_KINDS as KINDS, type ObjectKind as Kind } from "../provider/api/kinds";
import type { Connection } from "../provider/core/connection";
import { declarations } from "../provider/resources";
import type { CounterSnapshot } from "../emulator/counters";
import { controlClient } from "../support/control";
import type { FleetRun } from "../support/fleetCli";
import { startService } from "../support/service";
import { DEFAULT_PARALLEL, DEFAULT_SHARD_SIZE } from "../fleet/defaults";
import { fleetUnderBench, tenantEntry } from "./fleet";
import { publishSection, runBenchmark } from "./section";
import { median, round2 } from "./up";

const TENANTS = Number(process.env.BENCH_FLEET_TENANTS ?? 1000);
const REPS = Number(process.env.BENCH_REPS ?? 3);
/** The issue's bound on drift ÷ no-op preview. */
const RATIO_GOAL = 1.2;

/** The kinds the parent account holds itself; every other kind lives in a sub account. */
const ACCOUNT_WIDE: readonly Kind[] = ["ApiKey", "SubAccount"];
const PER_SUB_ACCOUNT = KINDS.filter((k) => !ACCOUNT_WIDE.includes(k));
/** Each kind's list endpoint (`GET` of its collection, as its declaration builds the path), by counter key. */
const LIST_OF = Object.fromEntries(
  KINDS.map((kind) => {
    const where = declarations[kind].collectionPath({ accountId: "a" } as Connection, { subAccountId: "s" });
    const endpoint = endpointOf("GET", where);
    if (!endpoint) throw new Error(`${kind}: no endpoint lists ${where}`);
    return [kind, endpointKey(endpoint)];
  }),
) as Record<Kind, string>;

type Command = "preview" | "drift" | "refresh only";
const COMMANDS: Record<Command, (rootKeys: string[]) => string[]> = {
  preview: () => ["preview", "--frozen"],
  drift: (rootKeys) => ["drift", "--json", ...rootKeys.flatMap((id) => ["--ignore", id])],
  "refresh only": () => ["drift", "--json", "--no-inventory"],
};

interface Requests {
  total: number;
  writes: number;
  /** Requests to the kinds' list endpoints. */
  lists: number;
  rateLimited: number;
  /** List requests per kind. */
  byKind: Record<Kind, number>;
}

interface Run {
  command: Command;
  round: number;
  seconds: number;
  requests: Requests;
  /** drift: the report's own count of list requests. */
  listCalls?: number;
  /** drift: the families the report could not list (wholly or in part), by kind: how many, and one reason. */
  notListed?: Record<string, { count: number; example: string }>;
}

/** The subset of the drift report's JSON the benchmark checks. */
interface DriftJson {
  exitCode: number;
  shardsChecked: number;
  tenantsChecked: number;
  drift: unknown[];
  unmanaged: Array<{ kind: string; id: string }>;
  notListed: Array<{ tenant?: string; kind: string; reason: string }>;
  unchecked: Array<{ shard: string; error: string }>;
  listCalls: number;
}

const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

function requestsOf(c: CounterSnapshot): Requests {
  const byKind = Object.fromEntries(KINDS.map((k) => [k, c.endpoints[LIST_OF[k]] ?? 0])) as Record<Kind, number>;
  // Counted per endpoint, not per kind: two kinds may share one (none do today).
  const lists = [...new Set(Object.values(LIST_OF))].reduce((n, key) => n + (c.endpoints[key] ?? 0), 0);
  const rateLimited = Object.values(c.keys).reduce((n, k) => n + k.rateLimited, 0);
  return { total: c.total, writes: c.writes, lists, rateLimited, byKind };
}

function notListedByKind(report: DriftJson): Record<string, { count: number; example: string }> {
  const out: Record<string, { count: number; example: string }> = {};
  for (const n of report.notListed) {
    const k = (out[n.kind] ??= { count: 0, example: `${n.tenant ?? "(account)"}: ${n.reason}` });
    k.count++;
  }
  return out;
}

/** Throws, with the command's output, unless the run is what the benchmark measures. */
function check(command: Command, run: FleetRun, requests: Requests): DriftJson | undefined {
  const fail = (why: string) => new Error(`${command}: ${why}\n${run.stdout}\n${run.stderr}`);
  if (requests.writes !== 0) throw fail(`${requests.writes} writes at the service`);
  if (command === "preview") {
    const t = run.rows.total;
    if (run.code !== 0 || !t || t.created || t.updated || t.replaced || t.deleted)
      throw fail("not a clean no-op preview");
    return undefined;
  }
  let report: DriftJson;
  try {
    report = JSON.parse(run.stdout) as DriftJson;
  } catch {
    throw fail("stdout is not the report's JSON");
  }
  if (run.code !== 0 || report.exitCode !== 0) throw fail(`exit ${run.code} (report ${report.exitCode})`);
  if (report.drift.length || report.unmanaged.length || report.unchecked.length)
    throw fail("drift, unmanaged objects or unchecked shards on an untouched fleet");
  if (report.tenantsChecked !== TENANTS) throw fail(`${report.tenantsChecked} tenants checked of ${TENANTS}`);
  return report;
}

async function main(): Promise<void> {
  const started = new Date();
  const load = [`before: ${uptime()}`];
  const svc = await startService();
  const control = controlClient(svc);
  const { dir, project, fleet } = fleetUnderBench(svc, "drift");
  const runs: Run[] = [];
  let upSeconds: number;
  try {
    // The emulator's own parent key: no shard manages it, so the inventory rightly reports it.
    const dump = await control.dumpState();
    const rootKeys = dump.api_keys.filter((k) => k.account_id === dump.parent_account_id).map((k) => k.id);
    fs.mkdirSync(path.join(dir, "state"));
    fs.writeFileSync(
      path.join(dir, "tenants.yaml"),
      stringify({ tenants: Array.from({ length: TENANTS }, (_, i) => tenantEntry(i)) }),
    );
    const t0 = Date.now();
    const made = await fleet(["up"]);
    upSeconds = round2((Date.now() - t0) / 1000);
    if (made.code !== 0) throw new Error(`up: ${made.stdout}${made.stderr}`);
    load.push(`after the up (${upSeconds} s): ${uptime()}`);
    const order: Command[] = ["preview", "drift", "refresh only"];
    for (let round = 0; round < REPS; round++) {
      // Rotated each round, so neither command always runs right after the other.
      const turn = order.map((_, i) => order[(i + round) % order.length]!);
      for (const command of turn) {
        await control.resetCounters();
        const t1 = process.hrtime.bigint();
        const run = await fleet(COMMANDS[command](rootKeys));
        const seconds = round2(Number(process.hrtime.bigint() - t1) / 1e9);
        const requests = requestsOf(await control.counters());
        const report = check(command, run, requests);
        runs.push({
          command,
          round,
          seconds,
          requests,
          ...(report && { listCalls: report.listCalls, notListed: notListedByKind(report) }),
        });
        process.stderr.write(
          `[bench drift] round ${round + 1} ${command}: ${seconds} s, ${requests.total} requests (${requests.lists} lists, ${requests.writes} writes, ${requests.rateLimited} 429s)\n`,
        );
      }
      load.push(`after round ${round + 1}: ${uptime()}`);
    }
  } finally {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(project, { recursive: true, force: true });
  }
  const result = { tenants: TENANTS, reps: REPS, upSeconds, runs, load };
  publishSection(section(result, started), { name: "fleet-drift", result });
}

function section(r: { upSeconds: number; runs: Run[]; load: string[] }, started: Date): string[] {
  const of = (c: Command) => r.runs.filter((x) => x.command === c);
  const secs = (c: Command) => of(c).map((x) => x.seconds);
  const med = (c: Command) => round2(median(secs(c)));
  const ratio = round2(med("drift") / med("preview"));
  const refreshRatio = round2(med("refresh only") / med("preview"));
  // The same ratios within each round: its commands ran minutes apart at most, under a closer load.
  const inRound = (c: Command, round: number) => of(c).find((x) => x.round === round)!.seconds;
  const rounds = Array.from({ length: REPS }, (_, i) => i);
  const paired = rounds.map((i) => round2(inRound("drift", i) / inRound("preview", i)));
  const inventorySeconds = rounds.map((i) => round2(inRound("drift", i) - inRound("refresh only", i)));
  const drifts = of("drift");
  const d = drifts[0]!;
  const same = drifts.every((x) => JSON.stringify(x.requests.byKind) === JSON.stringify(d.requests.byKind));
  const perSub = PER_SUB_ACCOUNT.reduce((n, k) => n + d.requests.byKind[k], 0);
  const accountLists = ACCOUNT_WIDE.reduce((n, k) => n + d.requests.byKind[k], 0);
  const most = Math.max(...PER_SUB_ACCOUNT.map((k) => d.requests.byKind[k] / TENANTS));
  const over = PER_SUB_ACCOUNT.filter((k) => d.requests.byKind[k] > TENANTS);
  const envSet = Object.entries(process.env).filter(([k]) => k === "BENCH_REPS" || k.startsWith("BENCH_FLEET_"));
  const command = `${envSet.map(([k, v]) => `${k}=${v} `).join("")}bash scripts/bench.sh fleet-drift`;
  const shards = Math.ceil(TENANTS / DEFAULT_SHARD_SIZE);
  const row = (c: Command, what: string) => {
    const q = of(c)[0]!.requests;
    return `| ${what} | ${secs(c).join(" / ")} | ${med(c)} | ${round2(med(c) / med("preview"))}× | ${q.total} | ${q.lists} | ${q.writes} | ${q.rateLimited} |`;
  };
  const met = (good: boolean) => (good ? "met" : "**missed**");
  const kindRow = (k: Kind) => {
    const n = d.notListed?.[k];
    const per = ACCOUNT_WIDE.includes(k) ? "(account-wide)" : String(round2(d.requests.byKind[k] / TENANTS));
    return `| ${k} | ${d.requests.byKind[k]} | ${per} | ${n ? `${n.count}, e.g. ${n.example}` : "0"} |`;
  };
  return [
    "## Fleet drift vs a no-op fleet preview (`txmail-fleet drift`)",
    "",
    `${TENANTS} tenants (${TENANTS * 6} resources) in ${shards} shard stacks, the command's defaults (native face, shard size`,
    `${DEFAULT_SHARD_SIZE}, ${DEFAULT_PARALLEL} shards at once, file backend), made once with \`up\` (${r.upSeconds} s, not measured); then`,
    `${REPS} rounds, rotating the order, of a no-op \`preview --frozen\`, \`drift --json --ignore <the emulator's root key>\``,
    "and `drift --no-inventory` (the refresh preview alone: where the inventory's time shows). Each command",
    "timed whole; requests are the emulator's counters for that command (100 rps, burst 200 per account).",
    `Run on ${started.toISOString().slice(0, 16).replace("T", " ")} UTC with \`${command}\` (bench/fleetDrift.ts):`,
    `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}; the machine was shared with other work — its load:`,
    "",
    ...r.load.map((l) => `- ${l}`),
    "",
    "| command | runs (s) | median (s) | ÷ preview (medians) | requests | list requests | writes | 429s |",
    "|---|---|---|---|---|---|---|---|",
    row("preview", "no-op `preview --frozen`"),
    row("drift", "`drift` (refresh preview + inventory)"),
    row("refresh only", "`drift --no-inventory`"),
    "",
    `- drift ≤ ${RATIO_GOAL}× a no-op preview: ${ratio}× (medians ${med("drift")} s ÷ ${med("preview")} s) — ${met(ratio <= RATIO_GOAL)}.`,
    `  Round by round: ${paired.map((x) => `${x}×`).join(" / ")} (median ${round2(median(paired))}×). The refresh preview alone`,
    `  is ${refreshRatio}×; the inventory adds ${round2(med("drift") - med("refresh only"))} s (medians; round by round ${inventorySeconds.join(" / ")} s).`,
    `- inventory ≤ one list request per kind per sub account: ${perSub} list requests for ${TENANTS} sub accounts ×`,
    `  ${PER_SUB_ACCOUNT.length} kinds = ${round2(perSub / TENANTS)} per sub account (at most ${round2(most)} of one kind) — ${met(most <= 1)}` +
      `${over.length ? ` (${over.join(", ")}: see below)` : ""};`,
    `  plus ${accountLists} account-wide (the parent's keys and sub accounts, pages included). The report counted`,
    `  ${d.listCalls} list requests, the emulator ${d.requests.lists}` +
      `${d.listCalls === d.requests.lists ? "" : " (the report counts a listing of several pages once)"}` +
      `${same ? "; every drift run sent the same" : "; **the drift runs sent different counts**"}; 0 writes in every run.`,
    "",
    "| kind | list requests in a drift run | per sub account | not listed by the inventory (tenants), e.g. |",
    "|---|---|---|---|",
    ...[...ACCOUNT_WIDE, ...PER_SUB_ACCOUNT].map(kindRow),
    "",
  ];
}

runBenchmark(main);
