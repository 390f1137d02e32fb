// The SDK's own stack frames, left out of the traces taken while a resource registers.
//
// Pulumi records, with every resource, the stack at its registration: `sourcePosition` (the frame
// after Pulumi's constructors and the resource class's) and the whole `stackTrace`, which the engine
// keeps in state and rewrites at every checkpoint. Pulumi also formats a trace for every promise it
// makes while registering (debuggable.js). Through this SDK, each trace holds four to six frames of
// its own (TxmailResource, DeclaredResource, the class, the Tenant's helpers), and under ts-node each
// frame is source-mapped: 30 % of a 50-tenant program's stack-formatting time, ~380 of the ~3 800
// bytes of state per resource, and a `sourcePosition` inside this package instead of the user's
// line (bench/RESULTS.md#where-the-time-goes). Removed here, before any mapping.
import * as path from "node:path";

/** The folders of this package's code (compiled or not): `<root>/sdk/nodejs/` and `<root>/provider/`. */
const ROOT = path.resolve(__dirname, "..", "..", "..");
const OWN = [path.join(ROOT, "sdk", "nodejs") + path.sep, path.join(ROOT, "provider") + path.sep];

const isOwn = (frame: NodeJS.CallSite) => {
  const file = frame.getFileName();
  return file !== undefined && file !== null && OWN.some((dir) => file.startsWith(dir));
};

/** Node's own format, for when nothing else (ts-node's source maps) formats traces. */
const plainFormat = (error: Error, frames: NodeJS.CallSite[]) =>
  `${Error.prototype.toString.call(error)}${frames.map((f) => `\n    at ${f.toString()}`).join("")}`;

/**
 * Until the returned function is called, removes the SDK's frames from every trace formatted, but
 * the first `keep` of them (innermost first): Pulumi takes the frame of the resource class's
 * constructor as a given and skips it, so a face registering through `super()` keeps one of its own
 * in that place; `pulumi.dynamic.Resource`'s constructor is that frame on the dynamic face.
 * (A function to call, not a callback: `super()` cannot be called from a nested function.)
 */
export function hideOwnFrames(keep: 0 | 1): () => void {
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, frames) => {
    let kept = 0;
    // A builtin called by the SDK goes with it: `Reflect.construct` (the dynamic face) has no file.
    const outside = frames.filter(
      (f, i) => (!isOwn(f) && !(f.getFileName() == null && frames[i + 1] && isOwn(frames[i + 1]!))) || kept++ < keep,
    );
    return previous ? previous(error, outside) : plainFormat(error, outside);
  };
  return () => {
    Error.prepareStackTrace = previous;
  };
}
