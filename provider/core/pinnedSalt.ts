// The stack's salt pinned in stack configuration (`txmail:stackSalt`): the one home of the salt that
// every provider of the stack sees before its first call, whatever its name and version.
//
// Why configuration: the engine names a default provider after the plugin's version
// (`default_<version>_<url>`, no alias to the old name; it fills in the version the language host
// requires when a resource names none), so a salt kept in the provider's own state is lost at every
// upgrade — a create interrupted before it would then be made again. A dynamic-face stack keeps its
// salt in a StackSalt resource, which survives upgrades, but not a switch to the native face. A
// pinned salt survives both, and is durable before the stack's first run, so state written once per
// run (PULUMI_SKIP_CHECKPOINTS) no longer costs a refused first run (freshSalt.ts). txmail-fleet pins
// one for every shard stack it creates. Without a pin the faces keep their salt as before.
//
// Unique per stack: two stacks with the same project and stack name on one account (two engineers'
// `dev` stacks) must not share one, or each would be answered the other's creations.

export const PINNED_SALT_CONFIG = "txmail:stackSalt";

/** Why a pinned salt is unusable, or undefined. */
export function pinnedSaltProblem(value: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(value)) {
    return "must be 16 to 128 characters of letters, digits, '-' and '_' (e.g. the output of `openssl rand -hex 16`)";
  }
  return undefined;
}

/** A fresh value to pin (what txmail-fleet writes for a new shard stack). */
export function newPinnedSalt(): string {
  const { randomBytes } = require("node:crypto") as typeof import("node:crypto");
  return randomBytes(16).toString("hex");
}
