#!/usr/bin/env node
// txmail-fleet: provisions the tenants of one tenants file as shard stacks (docs/guide/fleets.md).
import { parseArgs, USAGE, UsageError } from "./args";
import { exitWhenWritten } from "./exit";
import { runFleet } from "./fleet";

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  let interrupted = false;
  process.on("SIGINT", () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stdout.write(
      "interrupted: running shards finish the steps in flight; no new shard starts (Ctrl-C again to quit at once)\n",
    );
  });
  const opts = parseArgs(argv);
  for (const warning of opts.warnings) process.stderr.write(`txmail-fleet: warning: ${warning}\n`);
  const print = (line: string) => process.stdout.write(`${line}\n`);
  // drift/dns --json, dns --zone: stdout is the document alone (for jq, for a DNS team's file); what
  // the run says as it goes is on stderr.
  const progress = opts.json || opts.zone ? (line: string) => process.stderr.write(`${line}\n`) : print;
  return runFleet(opts, { out: progress, result: print, interrupted: () => interrupted });
}

main(process.argv.slice(2)).then(
  (code) => exitWhenWritten(code),
  (e: unknown) => {
    // Known errors name the flag or field and the rule; their stack would only hide that.
    const known = e instanceof UsageError || (e instanceof Error && /(FileError|OutputError)$/.test(e.name));
    process.stderr.write(`txmail-fleet: ${known ? (e as Error).message : e instanceof Error ? e.stack : String(e)}\n`);
    exitWhenWritten(2);
  },
);
