// One side of an A/B pair (scripts/ab.sh): a first `up` of N tenants on a fresh stack of one program
// (BENCH_PROGRAM: real, native, floor, floor-native) in one checkpoint mode (BENCH_MODE: default or
// fast), against its own emulator, after a preview warm-up; prints one JSON line: the up's seconds
// and its CPU seconds per process kind (bench/profile.ts). Loopback only.
import { createTestStack } from "../support/stack";
import { startService } from "../support/service";
import { withCpu } from "./profile";
import { programOptions, round2, timed, type Program } from "./up";

async function main(): Promise<void> {
  const tenants = Number(process.env.BENCH_TENANTS ?? 50);
  const program = (process.env.BENCH_PROGRAM ?? "real") as Program;
  const fast = process.env.BENCH_MODE === "fast";
  const svc = await startService();
  try {
    const o = programOptions(svc, tenants)[program];
    const env = { ...o.env, ...(fast ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}) };
    const s = await createTestStack({ ...o, name: `ab-${program}`, env });
    try {
      await s.preview();
      // A fast-mode service stack's first run saves its salt and creates nothing (freshSalt.ts).
      if (fast && (program === "real" || program === "native")) await s.up().catch(() => undefined);
      const { value: seconds, cpu } = await withCpu(s, () => timed(() => s.up()));
      const state = await s.exportText();
      const resources = (JSON.parse(state) as { deployment: { resources: unknown[] } }).deployment.resources.length;
      const cpuRounded = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, round2(v)]));
      process.stdout.write(
        `${JSON.stringify({ seconds: round2(seconds), cpu: cpuRounded, stateBytesPerResource: Math.round(JSON.stringify(JSON.parse(state)).length / resources) })}\n`,
      );
    } finally {
      await s.dispose();
    }
  } finally {
    await svc.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
