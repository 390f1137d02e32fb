// Node's on-disk cache of compiled code (node:module enableCompileCache, Node ≥ 22.1), turned on
// before the provider's modules load: imported first by the processes that serve resources (the
// dynamic face's runtime.ts, the plugin's native/main.ts).
//
// Why: each `pulumi up` starts a fresh provider process, which parses and compiles the provider and
// zod again (~0.5 s of CPU on the first request's path, where a floor's provider loads nothing;
// bench/RESULTS.md#where-the-time-goes). With the cache, later processes load V8's code instead.
// Node keeps the cache per Node version and source hash under the OS temp dir (NODE_COMPILE_CACHE
// chooses another; NODE_DISABLE_COMPILE_CACHE=1 turns it off). A single executable has its own
// code cache and is left alone.
import * as nodeModule from "node:module";

function insideSingleExecutable(): boolean {
  try {
    return (require("node:sea") as { isSea(): boolean }).isSea();
  } catch {
    return false; // a Node without node:sea runs no single executable
  }
}

const enable = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache;
if (typeof enable === "function" && !insideSingleExecutable()) {
  try {
    enable();
  } catch {
    // only an optimisation: without it the modules compile as before
  }
}
