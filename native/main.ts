#!/usr/bin/env node
// Entry of the plugin `pulumi-resource-txmail` (bin/pulumi-resource-txmail runs it with node). The
// engine starts it with its own address (and log flags) as arguments and reads the port it serves
// on from the first line of stdout; nothing else may be printed there.
import "../provider/compileCache"; // first: the modules below load through Node's compile cache
import { serve } from "./server";
import { exitWithTheEngine } from "../provider/core/engineWatch";

// A stray rejection must not kill the process while other creates are in flight (their objects
// would exist at the service with nothing recorded): it is reported on stderr, which the engine logs.
process.on("unhandledRejection", (err: unknown) => {
  process.stderr.write(
    `pulumi-resource-txmail: unhandled rejection: ${err instanceof Error ? err.message : String(err)}\n`,
  );
});

// End with the engine that started this plugin, even when it is killed (provider/core/engineWatch.ts).
exitWithTheEngine(process.argv.slice(2));

serve().then(
  ({ port }) => process.stdout.write(`${port}\n`),
  (err: unknown) => {
    process.stderr.write(`pulumi-resource-txmail: cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
