// The fast depth of the history tester (issue 59, docs/guide/development.md#histories): random
// histories of program edits, engine runs, faults and environment changes, driven in process against
// the emulator, with the invariants checked after every step, for a fixed budget of time. The random seed
// is printed on every run; HISTORIES_SEED replays one, HISTORIES_COUNT runs that many histories
// instead of the time budget, HISTORIES_SECONDS changes the budget, HISTORIES_NATURAL_KEYS=0 stops
// both stacks and the environment sharing natural keys (Domain, Suppression, AccountMember).
// HISTORIES_DEPTH=engine runs the same histories through the real engine instead (engineWorld.ts;
// `npm run histories -- --depth engine`), histories of at most HISTORIES_MAX_COMMANDS commands
// (default 16 there: edits cost nothing, engine runs seconds; 20 here).
import * as fs from "node:fs";
import { closeSharedDispatchers } from "../../provider/client";
import { settingsFromEnv } from "./commands";
import { type Depth, runHistories, seedFromEnv } from "./runner";

const seed = seedFromEnv();
const count = process.env.HISTORIES_COUNT ? Number(process.env.HISTORIES_COUNT) : undefined;
const seconds = Number(process.env.HISTORIES_SECONDS || 45);
const depth: Depth = process.env.HISTORIES_DEPTH === "engine" ? "engine" : "fast";
const maxCommands = Number(process.env.HISTORIES_MAX_COMMANDS || (depth === "engine" ? 16 : 20));

afterAll(async () => {
  await closeSharedDispatchers();
});

test(
  `histories hold every invariant (${depth} depth, seed ${seed})`,
  async () => {
    const settings = settingsFromEnv();
    const result = await runHistories({
      seed,
      count,
      timeLimitMs: count === undefined ? seconds * 1000 : undefined,
      settings,
      depth,
      maxCommands,
    });
    process.stdout.write(
      `histories: ${depth} depth, seed ${seed}, ${result.histories} histories in ${(result.elapsedMs / 1000).toFixed(1)} s` +
        `${settings.naturalKeys ? " (natural keys shared)" : ""}: ${result.ok ? "all held" : "FAILED"}\n` +
        `histories: ${(result.stepsRun / Math.max(1, result.histories)).toFixed(1)} steps a history on average; ` +
        `${Object.entries(result.tally)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, n]) => `${k} ${n}`)
          .join(", ")}\n`,
    );
    if (!result.ok) {
      // For a CI job to keep (examples/ci/histories.yml uploads it).
      if (process.env.HISTORIES_REPORT) fs.writeFileSync(process.env.HISTORIES_REPORT, `${result.report}\n`);
      throw new Error(result.report);
    }
  },
  count === undefined ? (seconds + 120) * 1000 : 24 * 3600_000,
);
