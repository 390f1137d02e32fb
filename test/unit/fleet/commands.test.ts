// The fleet's commands as modules (fleet/commands): one per operation the CLI accepts, a worker
// step for exactly the operations a shard job can carry, and each command's own flags refused on
// the others with the same words.
import { COMMANDS } from "../../../fleet/commands";
import { parseArgs, USAGE } from "../../../fleet/args";
import { OPERATIONS } from "../../../fleet/options";
import type { ShardOperation } from "../../../fleet/protocol";

const SHARD_OPERATIONS: Record<ShardOperation, true> = {
  up: true,
  preview: true,
  refresh: true,
  destroy: true,
  drift: true,
  dns: true,
  rotate: true,
};

it("registers one command module per operation, in the CLI's order", () => {
  expect(COMMANDS.map((c) => c.name)).toEqual([...OPERATIONS]);
});

it("gives a worker step to exactly the operations a shard job carries", () => {
  expect(COMMANDS.filter((c) => c.shard).map((c) => c.name)).toEqual(Object.keys(SHARD_OPERATIONS));
});

it("documents each command's own flags in the usage", () => {
  for (const { flags } of COMMANDS) for (const [flag] of flags) expect(USAGE).toContain(`  ${flag} `);
});

it("refuses a command's own flag on another command, naming both", () => {
  expect(() => parseArgs(["up", "--zone"], "/w")).toThrow("--zone: only dns takes it, not up");
  expect(() => parseArgs(["dns", "--ignore", "k1"], "/w")).toThrow("--ignore: only drift takes it, not dns");
  expect(parseArgs(["drift", "--ignore", "k1"], "/w").ignore).toEqual(["k1"]);
});
