#!/usr/bin/env node
// `npm run histories -- --depth fast|engine --seed S --count N [--seconds T] [--max-commands M]
//  [--no-natural-keys] [--without a,b]`: runs the history tester (test/histories,
// docs/guide/development.md#histories) through jest, which gives each fast run its own module graph
// (a provider process per run). `--depth fast` (default) drives the providers in process;
// `--depth engine` runs the same commands through the real Pulumi engine (the CLI setup installs,
// Pulumi YAML programs on the checkout's native plugin: `bash scripts/setup.sh --with yaml` first),
// histories of at most 16 commands unless --max-commands says otherwise. Without --count it runs for
// --seconds (default 45). On a failure it prints the shrunk history and exits non-zero; with
// HISTORIES_REPORT=<file> the report is also written there (the nightly CI recipe uploads it).
"use strict";
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const args = process.argv.slice(2);
const opts = { depth: "fast" };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const value = () => {
    if (i + 1 >= args.length) throw new Error(`${a} needs a value`);
    return args[++i];
  };
  if (a === "--depth") opts.depth = value();
  else if (a === "--seed") opts.seed = value();
  else if (a === "--count") opts.count = value();
  else if (a === "--seconds") opts.seconds = value();
  else if (a === "--without") opts.without = value();
  else if (a === "--max-commands") opts.maxCommands = value();
  else if (a === "--no-natural-keys") opts.naturalKeys = false;
  else {
    process.stderr.write(`histories: unknown argument ${a}\n`);
    process.exit(2);
  }
}
if (opts.depth !== "fast" && opts.depth !== "engine") {
  process.stderr.write(`histories: --depth is fast or engine, not '${opts.depth}'\n`);
  process.exit(2);
}
const root = path.resolve(__dirname, "..");
const env = {
  ...process.env,
  HISTORIES_DEPTH: opts.depth,
  ...(opts.maxCommands !== undefined ? { HISTORIES_MAX_COMMANDS: opts.maxCommands } : {}),
  ...(opts.seed !== undefined ? { HISTORIES_SEED: opts.seed } : {}),
  ...(opts.count !== undefined ? { HISTORIES_COUNT: opts.count } : {}),
  ...(opts.seconds !== undefined ? { HISTORIES_SECONDS: opts.seconds } : {}),
  ...(opts.without !== undefined ? { HISTORIES_WITHOUT: opts.without } : {}),
  ...(opts.naturalKeys === false ? { HISTORIES_NATURAL_KEYS: "0" } : {}),
};
const jest = path.join(root, "node_modules", "jest", "bin", "jest.js");
const run = spawnSync(process.execPath, [jest, "--ci", "test/histories/fast.test.ts"], {
  cwd: root,
  env,
  stdio: "inherit",
});
process.exit(run.status ?? 1);
