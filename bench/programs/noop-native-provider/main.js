// The native floors' plugin (bench/programs/floor-native's, and the fleet floor's as
// noop-txmail-plugin/pulumi-resource-txmail): the txmail plugin's own gRPC server (dist/native/server.js, built from
// native/server.ts) over operations that do nothing — as bench/programs/noop-provider does for the
// dynamic floor. Whatever the server does per call (struct conversion, secrets accepted on the wire,
// detailed diffs), the floor pays too; the real native provider's excess over it is its own work.
"use strict";
const path = require("node:path");

const repo = path.resolve(__dirname, "..", "..", "..");
const { serve } = require(path.join(repo, "dist", "native", "server.js"));

const noChange = { changes: false, replaces: [], diffs: [], deleteBeforeReplace: false };
const noop = {
  checkConfig: (_olds, news) => ({ inputs: news, failures: [] }),
  diffConfig: () => noChange,
  configure: () => {},
  check: async (_urn, _olds, news) => ({ inputs: news, failures: [] }),
  diff: async () => noChange,
  create: async (urn, props) => ({ id: `${urn.split("::").pop()}-${Date.now()}`, outs: props }),
  read: async (id, _urn, props, inputs) => ({ id, props, inputs }),
  update: async (_id, _urn, _olds, news) => ({ outs: news }),
  remove: async () => {},
};

serve(noop).then(
  ({ port }) => process.stdout.write(`${port}\n`),
  (err) => {
    process.stderr.write(
      `pulumi-resource-txmailfloor: cannot start: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
