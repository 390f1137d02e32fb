// One side of an A/B pair (scripts/ab.sh): a first `up` of N tenants on a fresh stack of one program
// (BENCH_PROGRAM: real, native, floor, floor-native) in one checkpoint mode (BENCH_MODE: default or
// fast), against its own emulator, after a preview warm-up; prints one JSON line: the up's seconds
// and its CPU seconds per process kind (bench/profile.ts). Loopback only.
import { startService } from "../support/service";
import { type Mode, readyStack, resourcesIn, withCpu } from "./profile";
import { runBenchmark } from "./section";
import { programOptions, round2, timed, type Program } from "./up";

async function main(): Promise<void> {
  const tenants = Number(process.env.BENCH_TENANTS ?? 50);
  const program = (process.env.BENCH_PROGRAM ?? "real") as Program;
  const mode: Mode = process.env.BENCH_MODE === "fast" ? "fast" : "default";
  const svc = await startService();
  try {
    const s = await readyStack(programOptions(svc, tenants)[program], program, mode, `ab-${program}`);
    try {
      const { value: seconds, cpu } = await withCpu(s, () => timed(() => s.up()));
      const state = JSON.stringify(JSON.parse(await s.exportText())); // compact, as the engine writes it
      const cpuRounded = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, round2(v)]));
      const stateBytesPerResource = Math.round(state.length / resourcesIn(state));
      process.stdout.write(`${JSON.stringify({ seconds: round2(seconds), cpu: cpuRounded, stateBytesPerResource })}\n`);
    } finally {
      await s.dispose();
    }
  } finally {
    await svc.close();
  }
}

runBenchmark(main);
