// How @pulumi/policy presents values that are not known yet (a preview of a resource whose input
// comes from another resource's output):
// - the engine sends each unknown as a sentinel string, and the policy server keeps it as is
//   (deserialize.js); which sentinel depends on the type the engine inferred, so accept all seven;
// - the server hands `props` to validateResource wrapped in `unknownCheckingProxy` (proxy.js), which
//   throws `UnknownValueError` on *reading* a property or list element that holds a sentinel. Left
//   uncaught, the server turns it into an advisory "can't run policy during preview" and skips the
//   rest of the rule, so a known `0.0.0.0/0` next to one unknown entry would go unreported.
// So rules never read `props` directly: `readProp`/`readElement` turn both forms into "unknown".
import { UnknownValueError } from "@pulumi/policy";

/** The sentinels of @pulumi/policy's proxy.js (not in its typings; a unit test checks they match). */
export const UNKNOWN_SENTINELS: ReadonlySet<string> = new Set([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", // boolean
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421", // number
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9", // string (what the Node SDK sends for any unknown)
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2", // array
  "030794c1-ac77-496b-92df-f27374a8bd58", // asset
  "e48ece36-62e2-4504-bad9-02848725956a", // archive
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", // object
]);

/** Marks a value that will only be known at `pulumi up`. */
export const UNKNOWN: unique symbol = Symbol("unknown");
export type Unknown = typeof UNKNOWN;

export function isUnknownSentinel(value: unknown): boolean {
  return typeof value === "string" && UNKNOWN_SENTINELS.has(value);
}

/** Reads `target[key]`, mapping a sentinel (raw or behind the policy proxy) to UNKNOWN. */
export function readUnknownAware(target: object, key: string | number): unknown {
  let value: unknown;
  try {
    value = (target as Record<string | number, unknown>)[key];
  } catch (e) {
    if (e instanceof UnknownValueError) return UNKNOWN;
    throw e;
  }
  return isUnknownSentinel(value) ? UNKNOWN : value;
}
