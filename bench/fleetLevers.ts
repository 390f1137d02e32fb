// Engine settings as levers for the fleet (issue 36 item 4), each measured A against B on the same
// shard stacks: N tenants (the command's default shard size, native face, file backend) are made
// once, then no-op previews and no-op ups alternate with and without the lever, REPS rounds in
// rotating order; medians of all rounds. Levers: PULUMI_PARALLEL_DIFF=true (the engine diffs
// resources in parallel; serial otherwise). Loopback only; every run bounded by the fleet's own end.
// Run: bash scripts/bench.sh fleet-levers   (BENCH_FLEET_TENANTS=240 BENCH_REPS=3 by default)
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "yaml";
import { startService } from "../support/service";
import { fleetUnderBench, tenantEntry } from "./fleet";
import { publishSection, runBenchmark } from "./section";
import { median, round2 } from "./up";

const TENANTS = Number(process.env.BENCH_FLEET_TENANTS ?? 240);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const LEVERS: Record<string, Record<string, string>> = {
  "PULUMI_PARALLEL_DIFF=true": { PULUMI_PARALLEL_DIFF: "true" },
};
const OPERATIONS = ["preview", "up"] as const;
const offOf = (env: Record<string, string>) => Object.fromEntries(Object.keys(env).map((k) => [k, "false"]));

async function main(): Promise<void> {
  const started = new Date();
  const svc = await startService();
  const { dir, project, fleet } = fleetUnderBench(svc, "levers");
  const lines: string[] = [];
  try {
    fs.mkdirSync(path.join(dir, "state"));
    fs.writeFileSync(
      path.join(dir, "tenants.yaml"),
      stringify({ tenants: Array.from({ length: TENANTS }, (_, i) => tenantEntry(i)) }),
    );
    const made = await fleet(["up"]);
    if (made.code !== 0) throw new Error(`up: ${made.stdout}${made.stderr}`);
    const timings: Record<string, number[]> = {};
    for (let round = 0; round < REPS; round++) {
      for (const [lever, env] of Object.entries(LEVERS)) {
        for (const op of OPERATIONS) {
          const pair = round % 2 === 0 ? [false, true] : [true, false];
          for (const on of pair) {
            const t0 = Date.now();
            // Off is said explicitly: the fleet turns some of these on by default.
            const run = await fleet([op, "--frozen"], on ? env : offOf(env));
            const seconds = (Date.now() - t0) / 1000;
            if (run.code !== 0 || run.rows.total?.created || run.rows.total?.updated)
              throw new Error(`${op} ${lever} ${on}: not a clean no-op\n${run.stdout}${run.stderr}`);
            (timings[`${lever} ${op} ${on ? "on" : "off"}`] ??= []).push(round2(seconds));
            process.stderr.write(
              `[bench levers] round ${round + 1} ${op} ${lever} ${on ? "on" : "off"}: ${seconds.toFixed(1)} s\n`,
            );
          }
        }
      }
    }
    lines.push(
      "## Engine settings as fleet levers",
      "",
      `${TENANTS} tenants, the command's defaults (native face, state written once per run), file backend, made once; then`,
      `no-op previews and no-op ups with and without each setting, ${REPS} rounds alternating which goes first,`,
      `${started.toISOString().slice(0, 16).replace("T", " ")} UTC; \`bash scripts/bench.sh fleet-levers\` (bench/fleetLevers.ts).`,
      "",
      "| setting | operation | off, runs (s) | on, runs (s) | off ÷ on (medians) |",
      "|---|---|---|---|---|",
      ...Object.keys(LEVERS).flatMap((lever) =>
        OPERATIONS.map((op) => {
          const off = timings[`${lever} ${op} off`]!;
          const on = timings[`${lever} ${op} on`]!;
          return `| ${lever} | no-op ${op} | ${off.join(" / ")} | ${on.join(" / ")} | ${round2(median(off) / median(on))}× |`;
        }),
      ),
      "",
    );
  } finally {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(project, { recursive: true, force: true });
  }
  publishSection(lines);
}

runBenchmark(main);
