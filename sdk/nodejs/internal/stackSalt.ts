// One StackSalt resource per stack: random bytes kept in the stack's own state, which every txmail
// resource passes to its provider as `__stackSalt` for idempotency keys only
// (provider/core/operations/createKey.ts). The URN alone is shared by any two stacks with the same project
// and stack name — two engineers' local `dev` stacks on one account, a stack removed and re-created
// — and such stacks would replay each other's creations. The salt is what a different stack cannot
// share: drawn by the resource's create, so it exists only in this stack's state, and every resource
// waits for it, so the engine has saved it before any create that uses it; a crashed run's rerun
// therefore derives the same keys. A salt pinned in stack configuration (`txmail:stackSalt`) is no
// longer used: configuration travels through git to every clone (provider/core/pinnedSalt.ts).
import * as pulumi from "@pulumi/pulumi";
import { PINNED_SALT_CONFIG, pinIgnored } from "../../../provider/core/pinnedSalt";
import saltProvider = require("../../../provider/kinds/stackSalt");

export { STACK_SALT_TYPE } from "./stackSaltType";
export const STACK_SALT_NAME = "txmail-stack-salt";

class StackSalt extends pulumi.dynamic.Resource {
  declare readonly salt: pulumi.Output<string>;
  constructor() {
    super(saltProvider, STACK_SALT_NAME, { salt: undefined }, {}, "txmail-internal", "StackSalt");
  }
}

/**
 * One StackSalt per program run, keyed by the run's root stack resource: an Automation API inline
 * program runs several times in one process, each run with its own stack. Kept on a global symbol so
 * that two copies of the package in one program still register a single StackSalt.
 */
const perRun: WeakMap<object, { value?: Promise<string> }> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for("pulumi-txmail/stackSalt")
] ??= new WeakMap()) as WeakMap<object, { value?: Promise<string> }>;
/** Runs without a root stack resource (unit tests with mocks) share this key. */
const noStack = {};

/**
 * The current stack's salt: its StackSalt resource's, registered on first use. Undefined in a
 * preview, where no key is derived (diff ignores the salt).
 *
 * The value alone, not the resource's output: an output would make every resource record a
 * dependency on the StackSalt (its URN, twice: ~250 bytes per resource in a checkpoint the engine
 * rewrites after every step). The order needs no recorded dependency: the engine answers the
 * StackSalt's registration only after it has saved it, and each resource waits for this value.
 */
export function stackSalt(): Promise<string> | undefined {
  const run = pulumi.runtime.getStackResource() ?? noStack;
  let entry = perRun.get(run);
  if (!entry) {
    warnOfPin();
    const resource = new StackSalt();
    entry = pulumi.runtime.isDryRun()
      ? {}
      : { value: new Promise<string>((resolve) => resource.salt.apply((salt) => resolve(salt))) };
    perRun.set(run, entry);
  }
  return entry.value;
}

/** A salt pinned in configuration (0.1.x's advice): said once per run, never used. */
function warnOfPin(): void {
  const [namespace, key] = PINNED_SALT_CONFIG.split(":") as [string, string];
  if (new pulumi.Config(namespace).get(key)) void pulumi.log.warn(pinIgnored());
}
