// Why a no-op fleet preview on PostgreSQL takes longer than on the file backend, measured (issue 49
// item 3), and what compressing the state (`PULUMI_DIY_BACKEND_GZIP`, a CLI setting) does to each.
// Four fleets of N tenants (shards of 60, the command's defaults), each with its own emulator and
// backend: file, file + gzip, PostgreSQL, PostgreSQL + gzip (a real server on loopback with
// pg_stat_statements loaded). Each is brought up once; then R rounds of a no-op `txmail-fleet
// preview`, the fleets' order rotating from round to round; then one tenant's change (`up --tenant`:
// one shard's run, one checkpoint saved). Per run: wall time, the CPU of the fleet command and all it
// waited for (bash's `times`: workers, `pulumi` runs, programs, plugins), the PostgreSQL server's CPU
// (its main process and backends, from /proc), and every statement the CLI sent it
// (pg_stat_statements, reset before each run). Bytes: each shard's checkpoint as stored (the file's
// size; the row's text for PostgreSQL, which keeps a file as base64 in a JSON document).
// Run: bash scripts/bench.sh backend-preview (BENCH_BACKEND_TENANTS, BENCH_REPS). Writes the
// "PostgreSQL's no-op preview" section of bench/RESULTS.md.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "pg";
import { tenantEntry } from "./fleet";
import { removeInstalledCli, type Run, Scenario, uptime } from "./fleetScenario";
import { statFields, TICKS_PER_SECOND } from "./profile";
import { publishSection, runBenchmark } from "./section";
import { median, round2 } from "./up";

const TENANTS = Number(process.env.BENCH_BACKEND_TENANTS ?? 240);
const ROUNDS = Number(process.env.BENCH_REPS ?? 5);
const GZIP = { PULUMI_DIY_BACKEND_GZIP: "true" };
const STATISTICS = {
  settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" },
  initSql: "CREATE EXTENSION pg_stat_statements;\n\n",
};

const FLEETS = [
  { key: "file", label: "file backend", postgres: false },
  { key: "fileGzip", label: "file backend, gzip", postgres: false, env: GZIP },
  { key: "pg", label: "PostgreSQL", postgres: true },
  { key: "pgGzip", label: "PostgreSQL, gzip", postgres: true, env: GZIP },
] as const;
type FleetKey = (typeof FLEETS)[number]["key"];

/** What the CLI asked PostgreSQL during one run: calls and rows by statement text. */
type Statements = Record<string, { calls: number; rows: number; ms: number }>;

interface Measured extends Run {
  serverCpuSeconds?: number;
  statements?: Statements;
}

interface Result {
  up: Record<string, Measured>;
  previews: Record<string, Measured[]>;
  change: Record<string, Measured>;
  checkpointBytes: Record<string, number>;
  load: string[];
}

/** CPU ticks of the server: its main process (with the backends it reaped) and its live backends. */
function serverTicks(pid: number): number {
  const main = statFields(pid);
  let ticks = [11, 12, 13, 14].reduce((n, i) => n + Number(main[i]), 0); // utime stime cutime cstime
  for (const p of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const f = statFields(Number(p));
      if (Number(f[1]) === pid) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone between the listing and the read: its time is in the main process's now
    }
  }
  return ticks;
}

/** The server's statistics, on a connection of its own (its statements left out of what is read). */
async function statistics<T>(url: string, use: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const OWN = "query NOT LIKE '%pg_stat_statements%'";

async function measured(s: Scenario, run: () => Promise<Run>): Promise<Measured> {
  if (!s.pg) return run();
  const pg = s.pg;
  await statistics(pg.url, (c) => c.query("SELECT pg_stat_statements_reset()"));
  const before = serverTicks(pg.pid);
  const r = await run();
  const serverCpuSeconds = (serverTicks(pg.pid) - before) / TICKS_PER_SECOND;
  const rows = await statistics(pg.url, (c) =>
    c.query<{ query: string; calls: string; rows: string; ms: number }>(
      `SELECT query, calls, rows, total_exec_time AS ms FROM pg_stat_statements WHERE ${OWN}`,
    ),
  );
  const statements: Statements = {};
  for (const x of rows.rows) {
    const q = x.query.replace(/\s+/g, " ").trim();
    const e = (statements[q] ??= { calls: 0, rows: 0, ms: 0 });
    e.calls += Number(x.calls);
    e.rows += Number(x.rows);
    e.ms += x.ms;
  }
  return { ...r, serverCpuSeconds, statements };
}

/** Each shard's checkpoint as stored, in bytes (mean over the shards). */
async function checkpointBytes(s: Scenario): Promise<number> {
  const checkpoint = /stacks\/txmail-fleet\/shard-\d+\.json(\.gz)?$/;
  let sizes: number[];
  if (s.pg) {
    const rows = await statistics(s.pg.url, (c) =>
      c.query<{ key: string; bytes: number }>("SELECT key, octet_length(data::text) AS bytes FROM pulumi_state"),
    );
    sizes = rows.rows.filter((r) => checkpoint.test(r.key)).map((r) => Number(r.bytes));
  } else {
    const dir = path.join(s.stateDir, ".pulumi", "stacks", "txmail-fleet");
    sizes = fs
      .readdirSync(dir)
      .filter((f) => checkpoint.test(`stacks/txmail-fleet/${f}`))
      .map((f) => fs.statSync(path.join(dir, f)).size);
  }
  return Math.round(sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length));
}

async function bench(): Promise<Result> {
  const load = [`before: ${uptime()}`];
  const fleets: Array<[FleetKey, Scenario]> = [];
  const result: Result = { up: {}, previews: {}, change: {}, checkpointBytes: {}, load };
  try {
    for (const f of FLEETS) {
      const s = await Scenario.start(f.label, {
        tenants: TENANTS,
        postgres: f.postgres,
        ...("env" in f && { env: f.env }),
        ...(f.postgres && { postgresOptions: STATISTICS }),
      });
      fleets.push([f.key, s]);
      result.up[f.key] = await measured(s, () => s.step(`up, ${TENANTS} tenants`, "up", { cpu: true }));
      result.checkpointBytes[f.key] = await checkpointBytes(s);
    }
    load.push(`after the ups: ${uptime()}`);
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < fleets.length; i++) {
        const [key, s] = fleets[(i + round) % fleets.length]!;
        (result.previews[key] ??= []).push(
          await measured(s, () => s.step(`no-op preview, round ${round + 1}`, "preview", { cpu: true })),
        );
      }
    }
    load.push(`after the previews: ${uptime()}`);
    for (const [key, s] of fleets) {
      s.writeTenants(true);
      result.change[key] = await measured(s, () =>
        s.step("one tenant's change", "up", { cpu: true, extra: ["--tenant", tenantEntry(0).name] }),
      );
    }
  } finally {
    await Promise.all(fleets.map(([, s]) => s.close()));
    removeInstalledCli();
  }
  return result;
}

const callsOf = (m: Measured) => Object.values(m.statements ?? {}).reduce((n, x) => n + x.calls, 0);

/** A statement's text, short enough for a table cell (the table name and pipes out). */
const shortStatement = (q: string) => q.replace(/pulumi_state/g, "t").replace(/\|/g, "\\|");

function statementRows(label: string, runs: Measured[]): string[] {
  const texts = new Set(runs.flatMap((r) => Object.keys(r.statements ?? {})));
  return [...texts]
    .map((q) => {
      const of = (f: "calls" | "rows" | "ms") => median(runs.map((r) => r.statements?.[q]?.[f] ?? 0));
      return { q, calls: of("calls"), rows: of("rows"), ms: of("ms") };
    })
    .sort((a, b) => b.calls - a.calls)
    .map((x) => `| ${label} | \`${shortStatement(x.q)}\` | ${x.calls} | ${x.rows} | ${round2(x.ms)} |`);
}

function section(r: Result, started: Date): string[] {
  const fileMedian = median(r.previews.file!.map((x) => x.seconds));
  const previewRow = (f: (typeof FLEETS)[number]) => {
    const runs = r.previews[f.key]!;
    const seconds = median(runs.map((x) => x.seconds));
    const server = f.postgres ? String(round2(median(runs.map((x) => x.serverCpuSeconds ?? 0)))) : "";
    const calls = f.postgres ? String(median(runs.map(callsOf))) : "";
    return (
      `| ${f.label} | ${round2(seconds)} | ${runs.map((x) => x.seconds).join(" / ")} | ${round2(seconds / fileMedian)}× ` +
      `| ${round2(median(runs.map((x) => x.cpuSeconds ?? 0)))} | ${server} | ${calls} | ${r.checkpointBytes[f.key]} |`
    );
  };
  const changeRow = (f: (typeof FLEETS)[number]) => {
    const x = r.change[f.key]!;
    return `| ${f.label} | ${x.seconds} | ${x.cpuSeconds ?? ""} | ${f.postgres ? round2(x.serverCpuSeconds ?? 0) : ""} | ${f.postgres ? callsOf(x) : ""} |`;
  };
  const shardsOfTenants = Math.ceil(TENANTS / 60);
  const envSet = Object.entries(process.env).filter(([k]) => /^BENCH_(BACKEND_TENANTS|REPS)$/.test(k));
  return [
    `## PostgreSQL's no-op preview beside the file backend's, with and without gzip: ${TENANTS} tenants (issue 49)`,
    "",
    `Run on ${started.toISOString().slice(0, 16).replace("T", " ")} UTC with \`${envSet.map(([k, v]) => `${k}=${v} `).join("")}bash scripts/bench.sh backend-preview\``,
    `(bench/backendPreview.ts): ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}, ${TENANTS} tenants`,
    `(${shardsOfTenants} shards of 60, 2 at once), ${ROUNDS} rounds of a no-op \`txmail-fleet preview\` in rotating order. Load:`,
    "",
    ...r.load.map((l) => `- ${l}`),
    "",
    "Client CPU: the fleet command and every process it waited for (workers, `pulumi` runs, programs,",
    "plugins). Server CPU: PostgreSQL's processes. Statements: what the CLI sent the server",
    "(pg_stat_statements). Checkpoint: one shard's state as stored, in bytes (PostgreSQL keeps each",
    'file as `{"data": "<base64>"}` in a JSON column). Medians of all rounds.',
    "",
    "| backend | preview (s) | runs (s) | ÷ file | client CPU (s) | server CPU (s) | statements | checkpoint (B) |",
    "|---|---|---|---|---|---|---|---|",
    ...FLEETS.map(previewRow),
    "",
    "Statements per no-op preview of the whole fleet (medians; `t` is the table `pulumi_state`):",
    "",
    "| backend | statement | calls | rows | server ms |",
    "|---|---|---|---|---|",
    ...statementRows("PostgreSQL", r.previews.pg!),
    ...statementRows("PostgreSQL, gzip", r.previews.pgGzip!),
    "",
    "One tenant's change (`up --tenant`: one shard's run, one checkpoint saved):",
    "",
    "| backend | seconds | client CPU (s) | server CPU (s) | statements |",
    "|---|---|---|---|---|",
    ...FLEETS.map(changeRow),
    "",
    "| backend | statement | calls | rows | server ms |",
    "|---|---|---|---|---|",
    ...statementRows("PostgreSQL", [r.change.pg!]),
    "",
  ];
}

async function main(): Promise<void> {
  const started = new Date();
  const result = await bench();
  publishSection(section(result, started), { name: "backendPreview", result });
}

runBenchmark(main);
