// Domains verified in one program (issue 48): the wall time of a `pulumi up` of N domains, each with
// a DomainVerification, beside the same program with one domain — and the check-dns requests each
// domain cost. The emulator resolves through PowerDNS on loopback (support/dnsServer.ts) and keeps
// the service's 60-second check cache. Two ways the records reach DNS:
//   - `outside`: someone else publishes them (the benchmark, standing for a DNS team handed
//     `txmail-fleet dns --zone`), PROPAGATION_MS after each domain exists — after its verification's
//     first check, whose answer the service then keeps for a minute: every verification has to wait
//     for the service's next look, and the program's wait is what this measures;
//   - `program`: the program publishes them (test-only DNS provider txmaildns) and the verification
//     depends on them: the first check sees them.
// Rounds rotate the order of the runs; medians of all rounds. Every run's outputs say every domain
// is verified. Loopback only; every loop bounded.
// Run: bash scripts/bench.sh domain-verification   (BENCH_DOMAINS=50 BENCH_REPS=3 by default;
// BENCH_DNS_CACHE_SECONDS=60, BENCH_PROPAGATION_MS=5000)
import * as fs from "node:fs";
import * as path from "node:path";
import { Domain } from "../provider/api";
import { controlClient, type EmulatorControl } from "../support/control";
import { dnsPluginEnv, installDnsPlugin } from "../support/dnsPlugin";
import { type DnsServer, startDnsServer } from "../support/dnsServer";
import { REPO_ROOT } from "../support/root";
import { startService, type TestService } from "../support/service";
import { createTestStack, type TestStack } from "../support/stack";
import { publishSection, runBenchmark } from "./section";
import { median, round2, timed } from "./up";

const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 50);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const CACHE_SECONDS = Number(process.env.BENCH_DNS_CACHE_SECONDS ?? 60);
const PROPAGATION_MS = Number(process.env.BENCH_PROPAGATION_MS ?? 5000);
const PROGRAM = path.join(REPO_ROOT, "bench", "programs", "verify");
const CHECK = "/v2/accounts/{account_id}/domains/{domain}/check-dns";
const ZONE = "bench.example.com";

const SCENARIOS = ["outside", "program"] as const;
type Scenario = (typeof SCENARIOS)[number];
type Run = `${Scenario} ${number}`;
const RUNS: Run[] = SCENARIOS.flatMap((s) => [`${s} 1`, `${s} ${DOMAINS}`] as Run[]);

interface Result {
  domains: number;
  seconds: Record<Run, number[]>;
  medians: Record<Run, number>;
  /** The most check-dns requests one domain cost, per run. */
  maxChecks: Record<Run, number[]>;
  load: string[];
}

/**
 * Publishes each domain of `prefix` PROPAGATION_MS after it first appears in the account's list of
 * domains (every page, polled twice a second: a few requests, well inside the account's rate limit).
 * Stops when told, or after ten minutes.
 */
function publisher(svc: TestService, server: DnsServer, prefix: string): { stop(): Promise<void> } {
  const seen = new Set<string>();
  const pending: Promise<void>[] = [];
  let stopped = false;
  const deadline = Date.now() + 10 * 60_000;
  const loop = (async () => {
    while (!stopped && Date.now() < deadline) {
      const listed: Domain[] = [];
      for await (const d of svc.client.list(`/v2/accounts/${svc.accountId}/domains`, Domain)) listed.push(d);
      for (const d of listed.filter((x) => x.domain.startsWith(`${prefix}-`) && !seen.has(x.domain))) {
        seen.add(d.domain);
        const required = d.dns_records.filter((r) => r.required);
        pending.push(
          new Promise((resolve) => setTimeout(resolve, PROPAGATION_MS)).then(async () => {
            for (const r of required) await server.setRecord(r.host, r.type as "CNAME" | "TXT", [r.content]);
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await Promise.all(pending);
    },
  };
}

/** The most check-dns requests one domain of `prefix` cost since the log was cleared. */
async function maxChecksPerDomain(control: EmulatorControl, prefix: string): Promise<number> {
  const { requests, dropped } = await control.requests();
  if (dropped > 0) throw new Error("the emulator's request log dropped entries: the count would be wrong");
  const perDomain = new Map<string, number>();
  for (const r of requests.filter((x) => x.template === CHECK && x.path.includes(`/domains/${prefix}-`)))
    perDomain.set(r.path, (perDomain.get(r.path) ?? 0) + 1);
  return Math.max(0, ...perDomain.values());
}

async function bench(): Promise<Result> {
  const server = await startDnsServer();
  await server.createZone(ZONE);
  const svc = await startService({ dnsServer: server.address, dnsCacheSeconds: CACHE_SECONDS });
  const control = controlClient(svc);
  const seconds = Object.fromEntries(RUNS.map((r) => [r, [] as number[]])) as Record<Run, number[]>;
  const maxChecks = Object.fromEntries(RUNS.map((r) => [r, [] as number[]])) as Record<Run, number[]>;
  const stacks: TestStack[] = [];
  const load = [`before: ${fs.readFileSync("/proc/loadavg", "utf8").trim()}`];
  try {
    for (let round = 0; round < REPS; round++) {
      const order = RUNS.map((_, i) => RUNS[(round + i) % RUNS.length]!);
      for (const run of order) {
        const [scenario, count] = run.split(" ") as [Scenario, string];
        const prefix = `r${round}-${scenario}-${count}`;
        const s = await createTestStack({
          programDir: PROGRAM,
          name: prefix,
          config: {
            ...svc.config(),
            count: { value: count },
            prefix: { value: prefix },
            publish: { value: scenario },
          },
          env: { ...dnsPluginEnv(server), TXMAIL_DNS_CHECK_INTERVAL_MS: String(CACHE_SECONDS * 1000) },
        });
        installDnsPlugin(s.stack.workspace.pulumiHome!);
        stacks.push(s);
        await s.preview(); // warm-up (disk cache, compile caches) outside the timing
        await control.clearRequests();
        const outside = scenario === "outside" ? publisher(svc, server, prefix) : undefined;
        let verified: unknown;
        const took = await timed(async () => {
          verified = (await s.up()).outputs.allVerified?.value;
        }).finally(() => outside?.stop());
        if (verified !== true) throw new Error(`${run}: not every domain verified`);
        seconds[run].push(round2(took));
        maxChecks[run].push(await maxChecksPerDomain(control, prefix));
        process.stderr.write(`[bench verify] round ${round + 1} ${run}: ${took.toFixed(1)} s\n`);
      }
      load.push(`after round ${round + 1}: ${fs.readFileSync("/proc/loadavg", "utf8").trim()}`);
    }
    const medians = Object.fromEntries(RUNS.map((r) => [r, round2(median(seconds[r]))])) as Record<Run, number>;
    return { domains: DOMAINS, seconds, medians, maxChecks, load };
  } finally {
    for (const s of stacks) fs.rmSync(s.stateDir, { recursive: true, force: true });
    await svc.close();
    await server.close();
  }
}

function section(r: Result, started: Date): string[] {
  const m = r.medians;
  const ratio = (s: Scenario) => round2(m[`${s} ${r.domains}`] / m[`${s} 1`]);
  const row = (run: Run) =>
    `| ${run.split(" ")[0]} | ${run.split(" ")[1]} | ${r.seconds[run].join(" / ")} | ${m[run]} | ${r.maxChecks[run].join(" / ")} |`;
  const goal = ratio("outside");
  const checks = Math.max(...RUNS.flatMap((run) => r.maxChecks[run]));
  return [
    "## Domain verification",
    "",
    `One \`pulumi up\` of N domains, each with a DomainVerification (dynamic face), beside the same program with`,
    `one domain; ${REPS} rounds in rotating order, ${started.toISOString().slice(0, 16).replace("T", " ")} UTC;`,
    "`bash scripts/bench.sh domain-verification` (bench/domainVerification.ts). The emulator resolves through",
    `PowerDNS on loopback and keeps the service's check cache (${CACHE_SECONDS} s). \`outside\`: the records are`,
    `published by someone else ${PROPAGATION_MS / 1000} s after each domain exists, after its first check, so each`,
    "verification waits for the service's next look. `program`: the program publishes them first (the",
    "verification depends on them), so the first check sees them.",
    "",
    "| records | domains | runs (s) | median (s) | most checks of one domain |",
    "|---|---|---|---|---|",
    ...RUNS.map(row),
    "",
    `- ${r.domains} domains ÷ 1, records published outside (the wait): ${goal}× (goal ≤ 1.2×: ${goal <= 1.2 ? "met" : "**missed**"})`,
    `- ${r.domains} domains ÷ 1, records published by the program: ${ratio("program")}× (no wait: the engine's work for ${r.domains * 4} more resources)`,
    `- check-dns requests per domain: at most ${checks} (goal ≤ 2: ${checks <= 2 ? "met" : "**missed**"})`,
    `- load average: ${r.load.join("; ")}`,
    "",
  ];
}

async function main(): Promise<void> {
  const started = new Date();
  const result = await bench();
  publishSection(section(result, started), { name: "domainVerification", result });
}

if (require.main === module) runBenchmark(main);
