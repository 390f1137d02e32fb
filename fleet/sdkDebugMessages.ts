// Whether the shard programs send the Node SDK's debug-level messages to the engine.
//
// For every resource a program registers, @pulumi/pulumi sends the engine three debug messages
// ("Registering resource …", "RegisterResource RPC prepared …", "… RPC finished …"), one gRPC call
// each and in order. The engine turns every one into an event, writes it to its automatic log and
// streams it back to this worker, and shows it nowhere unless the run has `--debug`. A 30-tenant
// shard sends ~700 of them; measured on a no-op fleet preview of 480 tenants, they were ~21 % of the
// whole run's time (bench/HISTORY.md). The SDK has no setting for this (`log.debug` checks only that
// an engine is connected), so a shard worker replaces `log.debug` of its own copy of the SDK with one
// that drops the message, and puts it back for a run with `--debug`.
import type * as pulumi from "@pulumi/pulumi";

type LogModule = { debug: typeof pulumi.log.debug };

// The module object itself (not an import's copy): the SDK's own modules call `log.debug` through it.
const logModule = require("@pulumi/pulumi/log") as LogModule;
const sendToEngine = logModule.debug;
const drop: typeof pulumi.log.debug = () => Promise.resolve();

/** Keep (`true`) or drop (`false`) the SDK's debug-level messages of the programs this process runs. */
export function sdkDebugMessages(keep: boolean): void {
  // A future SDK without this export: nothing to do, the run is only slower.
  if (typeof sendToEngine !== "function") return;
  logModule.debug = keep ? sendToEngine : drop;
}
