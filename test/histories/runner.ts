// Runs histories: fast-check draws command lists from a seed, runs each against a fresh emulator and
// fresh stacks, checks the invariants after every step and, on a failure, shrinks the history to a
// smallest one that still fails. The report gives the random seed, the shrunk steps in words and as data
// (paste into regressions.test.ts), and what the providers said during it.
import fc from "fast-check";
import { type Cmd, commandOf, describe, historyCommands, type Model, type Settings } from "./commands";
import { EngineWorld } from "./engineWorld";
import { FastWorld, type World } from "./world";

/** `fast`: the providers in process, states simulated; `engine`: the real engine on generated YAML programs. */
export type Depth = "fast" | "engine";

export const startWorld = (depth: Depth, stacks: number): Promise<World> =>
  depth === "engine" ? EngineWorld.start(stacks) : FastWorld.start(stacks);

export interface HistoryOptions {
  seed: number;
  /** How many histories at most (default: as many as the time allows). */
  count?: number;
  /** Stop drawing new histories after this long (shrinking a failure may take longer). */
  timeLimitMs?: number;
  settings: Settings;
  maxCommands?: number;
  /** Default fast. */
  depth?: Depth;
}

export interface HistoryResult {
  ok: boolean;
  seed: number;
  /** Histories run (up to and including the first failing one). */
  histories: number;
  elapsedMs: number;
  /** The failure, in words: seed, shrunk steps, violation, the providers' lines. */
  report?: string;
  /** The shrunk history, as data. */
  steps?: Cmd[];
  /** Steps run (passed their check) over all histories, and how many of each type; events the commands noted. */
  stepsRun: number;
  tally: Record<string, number>;
}

/** The random seed to use: HISTORIES_SEED when set, else a fresh one (printed by the caller). */
export function seedFromEnv(env = process.env): number {
  const raw = env.HISTORIES_SEED;
  return raw !== undefined && raw !== "" ? Number(raw) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
}

/** Each stack's program empty, the clone's (stack C, after the others) too. */
const emptyModel = (settings: Settings): Model => ({ programs: Array.from({ length: settings.stacks + 1 }, () => []) });

/** Runs one history (a list of commands); throws the first violation. */
async function runOne(
  depth: Depth,
  settings: Settings,
  cmds: Iterable<fc.AsyncCommand<Model, World>>,
  keep: (w: World) => void,
) {
  const w = await startWorld(depth, settings.stacks);
  keep(w);
  try {
    await fc.asyncModelRun(() => ({ model: emptyModel(settings), real: w }), cmds);
  } finally {
    await w.close();
  }
}

export async function runHistories(opts: HistoryOptions): Promise<HistoryResult> {
  const started = Date.now();
  let last: World | undefined;
  let lastFailed: { world: World; error: unknown } | undefined;
  let ran = 0;
  let stepsRun = 0;
  const tally: Record<string, number> = {};
  const count = (w: World) => {
    stepsRun += w.steps.length;
    for (const c of w.steps) tally[c.t] = (tally[c.t] ?? 0) + 1;
    for (const [k, n] of w.tally) tally[k] = (tally[k] ?? 0) + n;
  };
  let inFlight: Promise<unknown> = Promise.resolve();
  const property = fc.asyncProperty(historyCommands(opts.settings, opts.maxCommands), async (cmds) => {
    // fast-check's time limit stops waiting for a history, not the history: it runs to its end here.
    const one = (async () => {
      ran++;
      try {
        await runOne(opts.depth ?? "fast", opts.settings, cmds, (w) => (last = w));
        count(last!);
      } catch (error) {
        lastFailed = { world: last!, error };
        throw error;
      }
    })();
    inFlight = one.catch(() => undefined);
    await one;
  });
  const result = await fc.check(property, {
    seed: opts.seed,
    numRuns: opts.count ?? 1_000_000,
    interruptAfterTimeLimit: opts.timeLimitMs,
    markInterruptAsFailure: false,
  });
  await inFlight;
  const elapsedMs = Date.now() - started;
  if (!result.failed) return { ok: true, seed: opts.seed, histories: ran, elapsedMs, stepsRun, tally };
  const steps = lastFailed?.world.steps ?? [];
  return {
    ok: false,
    seed: opts.seed,
    histories: result.numRuns,
    elapsedMs,
    steps,
    report: failureReport(opts, result, steps, lastFailed),
    stepsRun,
    tally,
  };
}

function failureReport(
  opts: HistoryOptions,
  result: { numRuns: number; numShrinks: number; counterexamplePath: string | null; errorInstance: unknown },
  steps: Cmd[],
  failed: { world: World; error: unknown } | undefined,
): string {
  const error = failed?.error instanceof Error ? failed.error.message : String(failed?.error ?? result.errorInstance);
  return [
    `A history failed (seed ${opts.seed}, history #${result.numRuns}, shrunk ${result.numShrinks} times; ` +
      `replay: ${opts.depth === "engine" ? "HISTORIES_DEPTH=engine " : ""}HISTORIES_SEED=${opts.seed}${opts.settings.naturalKeys ? "" : " HISTORIES_NATURAL_KEYS=0"}` +
      `${opts.settings.without.length ? ` HISTORIES_WITHOUT=${opts.settings.without.join(",")}` : ""}, ` +
      `fast-check path ${result.counterexamplePath}).`,
    "",
    "Steps:",
    ...steps.map((c, i) => `  ${i + 1}. ${describe(c)}`),
    "",
    `Violation ${error}`,
    "",
    "As data (a regression test replays it: test/histories/regressions.test.ts):",
    `  ${JSON.stringify(steps)}`,
    "",
    "What the runs said:",
    ...(failed?.world.log ?? []).map((l) => `  ${l.replace(/\n/g, "\n  ")}`),
  ].join("\n");
}

/** Replays a list of commands (a shrunk history): the first violation, or undefined when all hold. */
export async function replay(settings: Settings, steps: Cmd[], depth: Depth = "fast"): Promise<string | undefined> {
  const cmds = steps.map((c) => commandOf(settings, c));
  try {
    await runOne(depth, settings, cmds, () => undefined);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
