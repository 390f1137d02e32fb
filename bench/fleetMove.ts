// How long moving tenants between shard stacks takes (issue 64): N tenants (default 200, each with
// the full set of the fleet bench's objects: sub account, key, domain, route, webhook, SMTP
// credential) made by `up` in two shards of N/2; then the placement file is edited to put the N/2
// tenants of shard-001 in shard-002 (shard size raised to N), and `txmail-fleet place` moves them
// in the state — timed whole, as a user waits for it. Checked: 0 writes at the service during the
// move, every tenant's objects (ids) the same, and a following `up` of both shards changes nothing.
// Loopback only. Run: bash scripts/bench.sh fleetMove   (BENCH_FLEET_TENANTS=200)
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stringify } from "yaml";
import { controlClient, serviceObjects } from "../support/control";
import { runFleet, BENCH_FLEET_TIMEOUT_MS, type FleetRun } from "../support/fleetCli";
import { startService } from "../support/service";
import { tenantEntry } from "./fleet";

const TENANTS = Number(process.env.BENCH_FLEET_TENANTS ?? 200);

async function main(): Promise<void> {
  const svc = await startService();
  const control = controlClient(svc);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-bench-move-"));
  const stateDir = path.join(dir, "state");
  fs.mkdirSync(stateDir);
  const tenantsFile = path.join(dir, "tenants.yaml");
  const placementFile = path.join(dir, "tenants.placement.json");
  const fleet = async (...args: string[]): Promise<FleetRun & { seconds: number }> => {
    const started = Date.now();
    const run = await runFleet(args, { cwd: dir, stateDir, svc, timeoutMs: BENCH_FLEET_TIMEOUT_MS });
    if (run.code !== 0)
      throw new Error(`txmail-fleet ${args.join(" ")} exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
    return { ...run, seconds: (Date.now() - started) / 1000 };
  };
  try {
    fs.writeFileSync(
      tenantsFile,
      stringify({ tenants: Array.from({ length: TENANTS }, (_, i) => tenantEntry(i + 1)) }),
    );
    const half = TENANTS / 2;
    const up = await fleet("up", "--shard-size", String(half));
    const ids = () =>
      control.dumpState().then((d) =>
        serviceObjects(d)
          .map((o) => o.id)
          .sort(),
      );
    const before = await ids();
    const p = JSON.parse(fs.readFileSync(placementFile, "utf8")) as {
      shardSize: number;
      tenants: Record<string, number>;
    };
    const moving = Object.keys(p.tenants).filter((t) => p.tenants[t] === 1);
    for (const t of moving) p.tenants[t] = 2;
    fs.writeFileSync(placementFile, JSON.stringify({ ...p, shardSize: TENANTS }, null, 2));
    await control.clearRequests();
    const move = await fleet("place");
    const writes = (await control.requests()).requests.filter((r) => r.method !== "GET").length;
    const after = await ids();
    const again = await fleet("up");
    const total = again.rows.total!;
    const ok =
      writes === 0 &&
      JSON.stringify(before) === JSON.stringify(after) &&
      total.created + total.updated + total.replaced + total.deleted === 0;
    console.log(
      JSON.stringify(
        {
          tenants: TENANTS,
          moved: moving.length,
          objects: before.length,
          upSeconds: up.seconds,
          moveSeconds: move.seconds,
          moveLine: move.stdout.split("\n").find((l) => l.startsWith("moved ")),
          writesDuringMove: writes,
          idsKept: JSON.stringify(before) === JSON.stringify(after),
          upAfter: total,
          ok,
        },
        null,
        2,
      ),
    );
    if (!ok) process.exitCode = 1;
  } finally {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
