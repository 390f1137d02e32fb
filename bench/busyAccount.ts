// `pulumi up` while the account is busy: the service's limit (100 rps, burst 200) is per account and
// shared by every key, including the application that sends the tenants' mail. Each run starts a
// fresh emulator (the service's real limit), a fresh stack of bench/programs/tenants (N tenants,
// installed layout, as bench/up.ts), and a load generator (bench/loadGenerator.ts) that offers a
// fixed share of the account's limit with a second API key of the parent account, from a few
// seconds before `pulumi up` until right after it. Right before the up, the other traffic spends the
// account's burst (a busy account has none left; otherwise the bucket's 200 would absorb the
// provider's first wave and the up would never meet the limit).
//
// Per run: the up's time and outcome; from the emulator's per-key counters over the up, the
// provider's requests on the shared (parent) account — admitted and 429 — and on the tenants' own
// sub accounts (their own limits: the Tenant component creates a tenant's objects with its key),
// and the other traffic's admitted rate. What the remaining capacity allows:
//   allowed = max(provider's admitted requests on the shared account ÷ (100 − other traffic's
//                 admitted rate during the up), the median time of the unloaded (0 %) up)
// and the run's score = allowed ÷ actual time; the paired score uses the unloaded up of the same round
// (the machine drifts between rounds; the levels rotate within each). Goal: median paired score
// ≥ 80 %, 0 failures.
// Then the client alone with more demand than is left (bench/busyClient.ts), where the pacing shows.
// Loopback only; bounded: fixed runs, a generator with a hard stop, an up that fails on its own
// budgets. Run through scripts/bench.sh, or alone: node bench/out/bench/busyAccount.js [--markdown]
import * as fs from "node:fs";
import { ApiKeyWithSecret, paths } from "../provider/api";
import { closeSharedDispatchers } from "../provider/client";
import type { KeyRateCounter } from "../emulator/counters";
import { controlClient, serviceObjects } from "../support/control";
import { createTestStack, type TestStack } from "../support/stack";
import { startService, type TestService } from "../support/service";
import { BUSY_CLIENT_SETUP, benchBusyClient, type BusyClientRun } from "./busyClient";
import { startLoad, type LoadGenerator } from "./loadGenerator";
import { median, round2, tenantsProgram, timed } from "./up";

const LOADS = (process.env.BENCH_BUSY_LOADS ?? "0,50,90").split(",").map(Number);
const TENANTS = Number(process.env.BENCH_BUSY_TENANTS ?? 50);
const REPS = Number(process.env.BENCH_BUSY_REPS ?? 3);
const LIMIT = 100;
const BURST = 200;
const GOAL_PERCENT = 80;
/** The generator runs this long before the up starts, so the up meets traffic already flowing. */
const PREROLL_MS = 3_000;
/** Other traffic spends the account's burst right before the up (BENCH_BUSY_DRAIN=0: it does not). */
const DRAIN = process.env.BENCH_BUSY_DRAIN !== "0";
/** Hard stop of a generator (an up that takes longer has failed the benchmark anyway). */
const LOAD_MAX_SECONDS = 900;

export interface BusyRun {
  round: number;
  loadPercent: number;
  seconds: number;
  /** Why the up failed, or null. */
  failure: string | null;
  /** The provider on the shared (parent) account, over the up. */
  sharedAdmitted: number;
  shared429: number;
  /** The provider on the tenants' sub accounts (each has its own limit). */
  subAdmitted: number;
  sub429: number;
  /** The generator over the up: admitted rate (rps), 429s, requests it could not send (all slots busy). */
  foreignPerSecond: number;
  foreign429: number;
  foreignSkipped: number;
  foreignFailed: number;
  /** provider's shared admitted ÷ (LIMIT − foreign rate). */
  capacitySeconds: number;
}

export interface BusyLevel {
  loadPercent: number;
  runs: BusyRun[];
  medianSeconds: number;
  /** Per run: allowed ÷ actual, in %; and their median. */
  percents: number[];
  medianPercent: number;
  /** The same with the unloaded up of the same round: less sensitive to the machine's drift. */
  pairedPercents: number[];
  medianPairedPercent: number;
  failures: number;
}

export interface BusyAccountResult {
  tenants: number;
  reps: number;
  unloadedSeconds: number;
  levels: BusyLevel[];
  /** The client alone with more demand than the account has left (bench/busyClient.ts), every run. */
  client: BusyClientRun[];
}

/** The emulator that startService gives must enforce the service's limit, or this bench measures nothing. */
async function assertServiceLimit(): Promise<void> {
  const svc = await startService();
  try {
    const control = controlClient(svc);
    // Far more than the limit for 2 s: the burst plus 2 s of refill may pass, the rest must be 429.
    const load = startLoad({
      baseUrl: svc.baseUrl,
      apiKey: svc.apiKey,
      ratePerSecond: 1000,
      maxInFlight: 64,
      maxSeconds: 2,
    });
    await new Promise((r) => setTimeout(r, 2_100));
    const c = await load.stop();
    const { keys } = await control.counters();
    const admitted = Object.values(keys).reduce((n, k) => n + k.admitted, 0);
    if (c.rateLimited === 0 || admitted > BURST + LIMIT * c.seconds)
      throw new Error(
        `the emulator does not enforce ${LIMIT} rps / burst ${BURST}: ${admitted} admitted, ${JSON.stringify(c)}`,
      );
  } finally {
    await svc.close();
  }
}

/** A second key of the parent account: the limit is shared by every key, so this is the same budget. */
async function productionKey(svc: TestService): Promise<{ id: string; secret: string }> {
  const { data } = await svc.client.post(
    paths.apiKeys(svc.accountId),
    { label: "production-traffic", scopes: ["routes:read:all"] },
    ApiKeyWithSecret,
    { idempotencyKey: "bench-busy-production-key" },
  );
  return { id: data.id, secret: data.secret_key };
}

async function oneRun(round: number, loadPercent: number): Promise<Omit<BusyRun, "capacitySeconds">> {
  const svc = await startService();
  const control = controlClient(svc);
  let stack: TestStack | undefined;
  let load: LoadGenerator | undefined;
  try {
    const key = await productionKey(svc);
    stack = await createTestStack({ ...tenantsProgram(svc, TENANTS), name: `busy${loadPercent}-${round}` });
    await stack.preview(); // warm-up (disk cache, TypeScript compile caches) outside the timing
    load = startLoad({
      baseUrl: svc.baseUrl,
      apiKey: key.secret,
      ratePerSecond: (loadPercent / 100) * LIMIT,
      maxSeconds: LOAD_MAX_SECONDS,
    });
    await new Promise((r) => setTimeout(r, PREROLL_MS));
    // A busy account has no burst left: the other traffic's peaks spent it. Without this, the
    // bucket's 200 would absorb the provider's first wave and the up would never meet the limit.
    if (loadPercent > 0 && DRAIN) await load.drain();
    await control.resetCounters();
    const before = load.counts();
    let failure: string | null = null;
    const up = stack.up();
    const seconds = await timed(() =>
      up.catch((e: Error) => {
        failure = e.message.slice(-500);
      }),
    );
    const counters = await control.counters();
    const after = await load.stop();
    load = undefined;
    if (failure === null) {
      const objects = serviceObjects(await control.dumpState()).filter((o) => o.kind !== "ApiKey");
      if (objects.length !== TENANTS * 6) failure = `${objects.length} objects in the service, not ${TENANTS * 6}`;
    }
    const zero = { admitted: 0, rateLimited: 0 };
    const sum = (ks: KeyRateCounter[]) =>
      ks.reduce((t, k) => ({ admitted: t.admitted + k.admitted, rateLimited: t.rateLimited + k.rateLimited }), zero);
    const keys = Object.entries(counters.keys);
    const foreign = counters.keys[key.id] ?? zero;
    const shared = sum(keys.filter(([id, k]) => id !== key.id && k.accountId === svc.accountId).map(([, k]) => k));
    const sub = sum(keys.filter(([, k]) => k.accountId !== svc.accountId).map(([, k]) => k));
    if (loadPercent > 0 && after.ok === 0)
      throw new Error(`the load generator got no request through: ${JSON.stringify(after)}`);
    return {
      round,
      loadPercent,
      seconds: round2(seconds),
      failure,
      sharedAdmitted: shared.admitted,
      shared429: shared.rateLimited,
      subAdmitted: sub.admitted,
      sub429: sub.rateLimited,
      foreignPerSecond: round2(foreign.admitted / seconds),
      foreign429: foreign.rateLimited,
      foreignSkipped: after.skipped - before.skipped,
      foreignFailed: after.failed - before.failed,
    };
  } finally {
    await load?.stop();
    // No destroy: the emulator and its data go away with the run.
    if (stack) fs.rmSync(stack.stateDir, { recursive: true, force: true });
    await svc.close();
  }
}

export async function benchBusyAccount(): Promise<BusyAccountResult> {
  if (!LOADS.includes(0)) throw new Error("BENCH_BUSY_LOADS must include 0: the unloaded up is the engine's bound");
  await assertServiceLimit();
  const raw: Array<Omit<BusyRun, "capacitySeconds">> = [];
  const client: BusyClientRun[] = [];
  try {
    for (let round = 1; round <= REPS; round++) {
      // the levels in an order that rotates from round to round, so the machine's drift falls on each alike
      const order = LOADS.map((_, i) => LOADS[(round - 1 + i) % LOADS.length]!);
      for (const load of order) {
        process.stderr.write(`[busyAccount] round ${round} of ${REPS}: ${load} % of the limit used by other traffic\n`);
        const run = await oneRun(round, load);
        process.stderr.write(`[busyAccount]   ${JSON.stringify(run)}\n`);
        raw.push(run);
      }
    }
    for (let round = 1; round <= REPS; round++) {
      for (const load of LOADS) {
        const run = await benchBusyClient(load);
        process.stderr.write(`[busyAccount]   client alone: ${JSON.stringify(run)}\n`);
        client.push(run);
      }
    }
  } finally {
    await closeSharedDispatchers();
  }
  const unloadedSeconds = median(raw.filter((r) => r.loadPercent === 0 && r.failure === null).map((r) => r.seconds));
  const levels = LOADS.map((loadPercent): BusyLevel => {
    const runs = raw
      .filter((r) => r.loadPercent === loadPercent)
      .map((r) => ({ ...r, capacitySeconds: round2(r.sharedAdmitted / Math.max(1, LIMIT - r.foreignPerSecond)) }));
    const score = (r: BusyRun, unloaded: number | undefined) =>
      r.failure === null && unloaded !== undefined
        ? Math.round((1000 * Math.max(r.capacitySeconds, unloaded)) / r.seconds) / 10
        : 0;
    const unloadedOf = (round: number) =>
      raw.find((u) => u.round === round && u.loadPercent === 0 && u.failure === null)?.seconds;
    const percents = runs.map((r) => score(r, unloadedSeconds));
    const pairedPercents = runs.map((r) => score(r, unloadedOf(r.round)));
    return {
      loadPercent,
      runs,
      medianSeconds: round2(median(runs.map((r) => r.seconds))),
      percents,
      medianPercent: median(percents),
      pairedPercents,
      medianPairedPercent: median(pairedPercents),
      failures: runs.filter((r) => r.failure !== null).length,
    };
  });
  return { tenants: TENANTS, reps: REPS, unloadedSeconds: round2(unloadedSeconds), levels, client };
}

/** The RESULTS.md section: what this run measured, nothing else. */
export function busyAccountSection(r: BusyAccountResult): string[] {
  const med = (xs: number[]) => round2(median(xs));
  const met = (l: BusyLevel) => (l.failures === 0 && l.medianPairedPercent >= GOAL_PERCENT ? "met" : "**missed**");
  return [
    "## `pulumi up` while the account is busy",
    "",
    `\`pulumi up\` of ${r.tenants} tenants (bench/programs/tenants, installed) while other traffic uses a share of the same`,
    `account's limit (${LIMIT} rps, burst ${BURST}, shared by every key; bench/busyAccount.ts): a load generator in the bench`,
    "process offers GET /v2/ping at a fixed rate with a second key of the parent account (open loop, ≤ 32 in flight, a 429",
    `dropped and counted), from ${PREROLL_MS / 1000} s before the up until it ends. A fresh emulator and stack per run; the levels run in`,
    `a rotating order; ${r.reps} rounds. Requests are the emulator's per-key counters over the up: the provider on the shared`,
    "(parent) account, and on the tenants' sub accounts (their own limits; the Tenant component uses each tenant's key).",
    "What the remaining capacity allows = max(the provider's admitted requests on the shared account ÷ (100 − the other",
    `traffic's admitted rate during the up), the unloaded up's median time (${r.unloadedSeconds} s)); score = that ÷ the up's`,
    "time; the paired score uses the unloaded up of the same round instead of the median (the machine drifts between rounds).",
    `Goal: median paired score ≥ ${GOAL_PERCENT} %, 0 failures. With other traffic, it spends the account's burst right before the up`,
    "(a busy account has none left). The shared account sees only ~2 requests per tenant, so where the engine is slower than",
    "what is left the unloaded time bounds it, and the score says how much the other traffic slowed the up.",
    "",
    "| other traffic | up (s, median) | score (median) | paired score (median) | goal | failures | provider on shared account: admitted / 429 | on sub accounts: admitted / 429 | other traffic: admitted rps / 429 |",
    "|---|---|---|---|---|---|---|---|---|",
    ...r.levels.map(
      (l) =>
        `| ${l.loadPercent} % | ${l.medianSeconds} | ${l.medianPercent} % | ${l.medianPairedPercent} % | ${met(l)} | ${l.failures} | ` +
        `${med(l.runs.map((x) => x.sharedAdmitted))} / ${med(l.runs.map((x) => x.shared429))} | ` +
        `${med(l.runs.map((x) => x.subAdmitted))} / ${med(l.runs.map((x) => x.sub429))} | ` +
        `${med(l.runs.map((x) => x.foreignPerSecond))} / ${med(l.runs.map((x) => x.foreign429))} |`,
    ),
    "",
    "Every run (round, other traffic: up seconds, capacity term seconds, score; provider shared admitted/429; other traffic rps/429/skipped):",
    "",
    ...r.levels.flatMap((l) =>
      l.runs.map(
        (x, i) =>
          `- round ${x.round}, ${x.loadPercent} %: ${x.seconds} s, capacity ${x.capacitySeconds} s, score ${l.percents[i]} %, paired ${l.pairedPercents[i]} %; ` +
          `${x.sharedAdmitted}/${x.shared429}; ${x.foreignPerSecond} rps/${x.foreign429}/${x.foreignSkipped}` +
          (x.failure === null ? "" : ` — **failed**: ${x.failure.replace(/\s+/g, " ")}`),
      ),
    ),
    "",
    "The provider's client alone, with more demand than the account has left (bench/busyClient.ts): the real client",
    `(default retry and pacing) keeps ${BUSY_CLIENT_SETUP.workers} GET /v2/ping in flight for ${BUSY_CLIENT_SETUP.seconds} s against the same other traffic (burst spent`,
    "first). Share = the client's admitted rate ÷ (100 − the other traffic's admitted rate); the 429s are what the pacing",
    "costs: each pauses the account's pace for its Retry-After, and each of the other traffic's is a production request refused.",
    "At 0 % the burst is spent too, so the client's first burst (its pace starts with 195 tokens) meets an empty bucket: those",
    "are the 429s at 0 %; its steady pace (97 rps) is under the limit.",
    "",
    "| other traffic | client rps (median) | share of what was left (median) | client 429s (median) | other traffic rps / 429s (median) | errors |",
    "|---|---|---|---|---|---|",
    ...LOADS.map((load) => {
      const cs = r.client.filter((c) => c.loadPercent === load);
      const m = (f: (c: BusyClientRun) => number) => med(cs.map(f));
      return (
        `| ${load} % | ${m((c) => c.clientPerSecond)} | ${m((c) => c.sharePercent)} % | ${m((c) => c.client429)} | ` +
        `${m((c) => c.foreignPerSecond)} / ${m((c) => c.foreign429)} | ${cs.reduce((n, c) => n + c.errors, 0)} |`
      );
    }),
    "",
    "Every run (other traffic: client rps, share, client 429s; other rps, other 429s): " +
      r.client
        .map(
          (c) =>
            `${c.loadPercent} %: ${c.clientPerSecond}, ${c.sharePercent} %, ${c.client429}; ${c.foreignPerSecond}, ${c.foreign429}`,
        )
        .join(" · "),
    "",
  ];
}

if (require.main === module) {
  benchBusyAccount().then(
    (r) => console.log(process.argv.includes("--markdown") ? busyAccountSection(r).join("\n") : JSON.stringify(r)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
