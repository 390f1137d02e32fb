// `txmail:stackSalt`, a salt pinned in stack configuration, is not used (an unreleased build read it).
//
// Why: `pulumi config set` writes `Pulumi.<stack>.yaml`, a file teams commit. A second engineer who
// clones the project and runs a stack of the same name on their own backend and the same account
// would derive the first engineer's idempotency keys, and the service would answer their creates
// with the first engineer's objects — which their `destroy` then deletes. For a new stack's empty
// state, "a clone carrying the committed pin" and "a killed first run resumed" look the same to the
// provider; only a salt born in the stack's own state, which git never carries, tells them apart.
// So the salt lives in the state alone (sdk/nodejs/internal/stackSalt.ts, native/provider.ts), and a
// pinned value is ignored, with a warning that says how to remove it.

export const PINNED_SALT_CONFIG = "txmail:stackSalt";

/** What a stack with a pinned salt is told (once per run). */
export function pinIgnored(): string {
  return (
    `${PINNED_SALT_CONFIG} is set in this stack's configuration and is no longer used: a value in ` +
    `Pulumi.<stack>.yaml travels with the project through git, and a clone's stack of the same name would ` +
    `share this stack's idempotency keys, and so its objects. The salt lives in the stack's state. Remove it: ` +
    `\`pulumi config rm ${PINNED_SALT_CONFIG}\` (docs/guide/behaviour.md#the-stack-salt).`
  );
}
