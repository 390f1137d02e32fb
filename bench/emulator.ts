// Emulator throughput on loopback: GET of one object and idempotent POST (a route create with a fresh
// Idempotency-Key each time), so the emulator is never the bottleneck of provider benchmarks.
// Goal: >= 5 000 GET/s and >= 2 000 POST/s on 2 cores.
//
// The emulator runs as its own process (dist/emulator/cli.js, as users run it) with a data dir
// (SQLite, WAL) and a rate limit raised out of the way; the load generator is an undici Pool in this
// process. Both share the machine's cores, as they do in the provider benchmarks. Bounded: a fixed
// number of requests per phase. Run through scripts/bench.sh, or:
//   node bench/out/bench/emulator.js            (BENCH_GETS, BENCH_POSTS, BENCH_CONCURRENCY)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Pool } from "undici";
import { REPO_ROOT } from "../support/root";

const GETS = Number(process.env.BENCH_GETS ?? 40_000);
const POSTS = Number(process.env.BENCH_POSTS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROOT = REPO_ROOT;

interface Boot {
  baseUrl: string;
  accountId: string;
  apiKey: string;
}

export interface EmulatorBenchResult {
  getPerSecond: number;
  postPerSecond: number;
  gets: number;
  posts: number;
  concurrency: number;
  errors: number;
}

async function startCli(dataDir: string): Promise<{ boot: Boot; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [join(ROOT, "dist/emulator/cli.js"), "--port", "0", "--data", dataDir, "--rate-limit", "1000000:1000000"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code} before it printed its address`)));
  });
  return {
    boot: JSON.parse(line) as Boot,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Runs `total` requests with `CONCURRENCY` in flight; returns requests per second and non-2xx count. */
async function drive(
  total: number,
  one: (i: number) => Promise<number>,
): Promise<{ perSecond: number; errors: number }> {
  let next = 0;
  let errors = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < total) {
      const status = await one(next++);
      if (status < 200 || status > 299) errors++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { perSecond: total / seconds, errors };
}

export async function benchEmulator(): Promise<EmulatorBenchResult> {
  const dataDir = mkdtempSync(join(tmpdir(), "txmail-bench-emu-"));
  const { boot, stop } = await startCli(dataDir);
  const pool = new Pool(boot.baseUrl, { connections: CONCURRENCY });
  const auth = { authorization: `Bearer ${boot.apiKey}` };
  const routes = `/v2/accounts/${boot.accountId}/routes`;
  const request = async (method: "GET" | "POST", path: string, headers: Record<string, string>, body?: string) => {
    const res = await pool.request({ method, path, headers, body });
    await res.body.text();
    return res.statusCode;
  };
  try {
    const seedRes = await pool.request({
      method: "POST",
      path: routes,
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name: "bench", url: "https://hooks.example.com/in", recipient: "" }),
    });
    const seed = (await seedRes.body.json()) as { id: string };
    // Warm-up (JIT, SQLite page cache), not measured.
    await drive(Math.min(2_000, GETS), () => request("GET", `${routes}/${seed.id}`, auth));

    const get = await drive(GETS, () => request("GET", `${routes}/${seed.id}`, auth));
    const post = await drive(POSTS, (i) =>
      request(
        "POST",
        routes,
        { ...auth, "content-type": "application/json", "idempotency-key": `bench-${process.pid}-${i}` },
        JSON.stringify({ name: `bench-${i}`, url: "https://hooks.example.com/in", recipient: "" }),
      ),
    );
    return {
      getPerSecond: Math.round(get.perSecond),
      postPerSecond: Math.round(post.perSecond),
      gets: GETS,
      posts: POSTS,
      concurrency: CONCURRENCY,
      errors: get.errors + post.errors,
    };
  } finally {
    await pool.close();
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchEmulator().then(
    (r) => console.log(JSON.stringify(r)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
