// The fleet floor (bench/fleetBackends.ts): loaded with `node --require` into the fleet command and
// its shard workers, it puts bench/programs/noop-txmail-plugin first on each worker's PATH, so the
// engine finds a `pulumi-resource-txmail` there that does nothing (the txmail plugin's own gRPC server
// over no-op operations). Everything else is the real fleet of the native face: the same command,
// placement, shards, workers, shard programs (Tenant components and the same txmail:index:*
// resources, as many of them), engine runs, backend and settings (state written once per run). The
// fleet's time over the floor's is then what the txmail provider itself costs: its calls to the
// service, its state (outputs, secrets), its salt (a new shard's first run is made twice).
import * as path from "node:path";

const NOOP_PLUGIN_DIR = path.resolve(__dirname, "..", "..", "programs", "noop-txmail-plugin");

if (/[\\/]fleet[\\/]worker\.js$/.test(process.argv[1] ?? "")) {
  process.env.PATH = [NOOP_PLUGIN_DIR, process.env.PATH].filter(Boolean).join(path.delimiter);
}
