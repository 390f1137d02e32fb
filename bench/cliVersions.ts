// The same `pulumi up` under two Pulumi CLIs: the one setup pins and another build (e.g. the previous
// pin), to see what a CLI upgrade costs on the engine's side. The program (bench/programs/tenants, N
// tenants, installed as users get the package) and the SDK are the same for both; each round is a
// first `up` of a fresh stack under each CLI, in alternating order, against one emulator.
//
//   BENCH_OTHER_CLI=/path/to/pulumi BENCH_TENANTS=50 BENCH_REPS=3 node bench/out/bench/cliVersions.js
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TOOLS_DIR } from "../support/root";
import { createTestStack } from "../support/stack";
import { startService } from "../support/service";
import { tenantsProgram, timed } from "./up";

const other = process.env.BENCH_OTHER_CLI ?? "";
if (!other) throw new Error("BENCH_OTHER_CLI: the path of the other pulumi binary");
const tenants = Number(process.env.BENCH_TENANTS ?? 50);
const reps = Number(process.env.BENCH_REPS ?? 3);

/** A tools root like .tools whose bin/ has the other CLI and links to everything else. */
function otherToolsRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-cli-"));
  fs.mkdirSync(path.join(root, "bin"));
  for (const entry of fs.readdirSync(path.join(TOOLS_DIR, "bin"))) {
    if (entry !== "pulumi")
      fs.symlinkSync(fs.realpathSync(path.join(TOOLS_DIR, "bin", entry)), path.join(root, "bin", entry));
  }
  // A copy, not a link: the engine looks for its plugins next to its own resolved path.
  fs.copyFileSync(other, path.join(root, "bin", "pulumi"));
  fs.chmodSync(path.join(root, "bin", "pulumi"), 0o755);
  return root;
}

/** The median of all runs (the mean of the middle two for an even count). */
function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
const version = (bin: string) => execFileSync(bin, ["version"], { encoding: "utf8" }).trim();

async function main() {
  const roots = { pinned: TOOLS_DIR, other: otherToolsRoot() };
  const names = { pinned: version(path.join(TOOLS_DIR, "bin", "pulumi")), other: version(other) };
  const svc = await startService();
  const runs: Record<"pinned" | "other", number[]> = { pinned: [], other: [] };
  try {
    for (let round = 0; round < reps; round++) {
      const order = round % 2 === 0 ? (["pinned", "other"] as const) : (["other", "pinned"] as const);
      for (const cli of order) {
        const s = await createTestStack({
          ...tenantsProgram(svc, tenants),
          name: `${cli}${round}`,
          toolsRoot: roots[cli],
        });
        try {
          runs[cli].push(await timed(() => s.up()));
        } finally {
          await s.dispose();
        }
      }
    }
  } finally {
    await svc.close();
  }
  const line = (cli: "pinned" | "other") =>
    `${names[cli]}: median ${median(runs[cli]).toFixed(2)} s (runs ${runs[cli].map((x) => x.toFixed(2)).join(", ")})`;
  console.log(`${tenants} tenants (${tenants * 6} resources), ${reps} rounds, alternating:`);
  console.log(line("pinned"));
  console.log(line("other"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
