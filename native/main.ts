#!/usr/bin/env node
// Entry of the plugin `pulumi-resource-txmail` (bin/pulumi-resource-txmail runs it with node). The
// engine starts it with its own address (and log flags) as arguments and reads the port it serves
// on from the first line of stdout; nothing else may be printed there.
import { serve } from "./server";

serve().then(
  (port) => process.stdout.write(`${port}\n`),
  (err: unknown) => {
    process.stderr.write(`pulumi-resource-txmail: cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
