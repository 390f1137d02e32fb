// The plugin as a single executable against the script it replaces (issue 29), in one run:
// - start-up: process start to the port line on stdout (what the engine waits for), for the
//   executable (.tools/plugin, scripts/build-plugin.sh --binary), the development script
//   (bin/pulumi-resource-txmail: sh, then node) and `node dist/native/main.js`, in a rotating order
//   (BENCH_STARTUP_RUNS rounds, default 15);
// - the native N-tenant `pulumi up` (bench/programs/tenants, `txmail:face native`, installed
//   package) with each plugin build, the first `up` of a fresh stack, alternating which goes first
//   (BENCH_TENANTS, default 50; BENCH_REPS rounds, default 3);
// - sizes: the executable and each tarball found in dist-plugin/ (bash scripts/build-plugin.sh --all).
// Medians of all runs. Loopback only; every loop bounded.
//
//   npx tsc -p bench/tsconfig.json && node bench/out/bench/plugin.js
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/root";
import { createTestStack } from "../support/stack";
import { PLUGIN_FILES, type PluginBuild } from "../support/plugin";
import { startService } from "../support/service";
import { median, round2, tenantsProgram, timed } from "./up";

const STARTUP_RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 15);
const TENANTS = Number(process.env.BENCH_TENANTS ?? 50);
const REPS = Number(process.env.BENCH_REPS ?? 3);

const STARTERS = {
  binary: [PLUGIN_FILES.binary],
  script: [PLUGIN_FILES.script],
  "node dist/native/main.js": [process.execPath, path.join(REPO_ROOT, "dist", "native", "main.js")],
} as const;
type Starter = keyof typeof STARTERS;

/**
 * A stand-in for the engine's address: a plugin given an address where nothing listens takes its
 * engine for dead and exits (provider/core/engineWatch.ts), so something must listen there.
 */
const engine = new Promise<string>((resolve) => {
  const server = net.createServer((socket) => socket.destroy());
  server.listen(0, "127.0.0.1", () => resolve(`127.0.0.1:${(server.address() as net.AddressInfo).port}`));
  server.unref();
});

/** Milliseconds from spawning `cmd` to the first line on its stdout (the port); the process is then stopped. */
async function startup(cmd: readonly string[]): Promise<number> {
  const engineAddress = await engine;
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    // The engine's address as the first argument, as the engine starts a plugin.
    const child = spawn(cmd[0]!, [...cmd.slice(1), engineAddress], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${cmd.join(" ")}: no port line within 30 s`));
    }, 30_000);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (!out.includes("\n")) return;
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      clearTimeout(timer);
      if (!/^\d+\n/.test(out)) reject(new Error(`${cmd.join(" ")}: first line was not a port: ${out}`));
      child.once("exit", () => resolve(ms));
      child.kill("SIGTERM");
    });
    child.once("error", reject);
  });
}

async function startups(): Promise<Record<Starter, number[]>> {
  const names = Object.keys(STARTERS) as Starter[];
  const runs = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Starter, number[]>;
  for (const n of names) await startup(STARTERS[n]); // warm-up: disk cache
  for (let round = 0; round < STARTUP_RUNS; round++) {
    for (let i = 0; i < names.length; i++) {
      const n = names[(round + i) % names.length]!;
      runs[n].push(await startup(STARTERS[n]));
    }
  }
  return runs;
}

async function ups(): Promise<Record<PluginBuild, number[]>> {
  const svc = await startService();
  const runs: Record<PluginBuild, number[]> = { script: [], binary: [] };
  try {
    for (let round = 0; round < REPS; round++) {
      const order: PluginBuild[] = round % 2 === 0 ? ["binary", "script"] : ["script", "binary"];
      for (const plugin of order) {
        const s = await createTestStack({
          ...tenantsProgram(svc, TENANTS),
          face: "native",
          plugin,
          name: `${plugin}${round}`,
        });
        try {
          await s.preview(); // warm-up outside the timing, as bench/up.ts does
          runs[plugin].push(await timed(() => s.up()));
        } finally {
          await s.dispose();
        }
      }
    }
  } finally {
    await svc.close();
  }
  return runs;
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** Each tarball in dist-plugin/: its size and its executable's (from the archive's listing). */
function sizes(): string[] {
  const dir = path.join(REPO_ROOT, "dist-plugin");
  const rows = [`| executable (this platform, .tools/plugin) | ${mib(fs.statSync(PLUGIN_FILES.binary).size)} | — |`];
  if (!fs.existsSync(dir)) return rows;
  for (const f of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".tar.gz"))
    .sort()) {
    const listing = execFileSync("tar", ["-tvzf", path.join(dir, f)], { encoding: "utf8" });
    const exeBytes = Number(listing.trim().split(/\s+/)[2]);
    rows.push(`| ${f} | ${mib(exeBytes)} | ${mib(fs.statSync(path.join(dir, f)).size)} |`);
  }
  return rows;
}

async function main() {
  const load = os.loadavg()[0]!.toFixed(1);
  const s = await startups();
  const u = await ups();
  const line = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(", ");
  const out = [
    `Load average ${load} at the start; ${os.cpus().length} cores; ${new Date().toISOString().slice(0, 16)} UTC.`,
    "",
    `Start-up to the port line, ms (${STARTUP_RUNS} rounds, rotating order):`,
    "",
    "| plugin | median (ms) | runs (ms) |",
    "|---|---|---|",
    ...(Object.keys(s) as Starter[]).map((n) => `| ${n} | ${median(s[n]).toFixed(0)} | ${line(s[n], 0)} |`),
    "",
    `Native ${TENANTS}-tenant \`pulumi up\` (${TENANTS * 6} resources), ${REPS} rounds, alternating:`,
    "",
    "| plugin | median (s) | runs (s) |",
    "|---|---|---|",
    ...(["binary", "script"] as const).map((p) => `| ${p} | ${round2(median(u[p]))} | ${line(u[p], 2)} |`),
    "",
    "Sizes (MiB):",
    "",
    "| file | executable | tarball |",
    "|---|---|---|",
    ...sizes(),
  ];
  process.stdout.write(out.join("\n") + "\n");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
