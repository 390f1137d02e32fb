// A stack's salt must be saved before any create uses it: a killed run's rerun derives its
// idempotency keys from the salt it finds in state, and a salt lost with the run means other keys,
// so every object the killed run created would be created again (a twin).
//
// With checkpoints (the engine's default) that holds by construction: the engine saves the salt's
// resource (the dynamic face's StackSalt, the native face's provider) before it answers its
// registration, and every resource waits for it. With state written once per run
// (PULUMI_SKIP_CHECKPOINTS, which the engine passes on to its plugins) nothing is saved until the
// run ends, so a salt drawn in this run is not durable yet. Creates then refuse, before sending
// anything: the run ends with the salt saved (the engine saves at the end also when steps failed),
// and the next run creates with a durable salt. Only a stack's first run pays (on the native face
// also the first after a plugin upgrade): a salt is born in the state or nowhere, never in
// configuration, which travels through git (pinnedSalt.ts; docs/guide/behaviour.md#state-written-once-per-run).
//
// "Drawn in this run" is known in the process that drew it: each run starts its own plugin
// processes, and the salt's drawer and the creates share one (the dynamic-provider host serves the
// StackSalt and every txmail resource; a native provider draws its own salt in CheckConfig).

/** Kept on a global symbol: the dynamic-provider host may load this module more than once. */
const drawn: Set<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for("pulumi-txmail/saltsDrawnThisRun")] ??=
  new Set<string>()) as Set<string>;

/** Records a salt this process has just drawn (it is in no saved state yet). */
export function drewSalt(salt: string): void {
  drawn.add(salt);
}

/** The engine's own reading of the variable (sdk/go/common/util/cmdutil: "1" or "true", any case). */
export function skipsCheckpoints(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.PULUMI_SKIP_CHECKPOINTS ?? "";
  return value === "1" || value.toLowerCase() === "true";
}

/** Marks the error so that txmail-fleet can tell this refusal from a failure and run again. */
export const SALT_NOT_SAVED = "txmail-salt-not-saved";

/**
 * Throws, before anything is sent, when a create would use a salt that the engine has not saved:
 * drawn in this run while state is written once per run.
 */
export function requireSavedSalt(salt: string | undefined, what: string, env: NodeJS.ProcessEnv = process.env): void {
  if (salt === undefined || !drawn.has(salt) || !skipsCheckpoints(env)) return;
  throw Object.assign(
    new Error(
      `${what}: not created: the stack's salt was drawn in this run (its first run, or a new default provider after a ` +
        `plugin upgrade) and PULUMI_SKIP_CHECKPOINTS is set, so the stack's ` +
        `salt (the part of every idempotency key that is this stack's own) is saved only when this run ends; ` +
        `a create before that could be repeated as a twin if the run were killed. Nothing was sent. Run ` +
        `\`pulumi up\` again: the salt is saved by then. Only a stack's first run (and, on the native face, the ` +
        `first after a plugin upgrade) pays this (docs/guide/behaviour.md#the-stack-salt). (${SALT_NOT_SAVED})`,
    ),
    { category: SALT_NOT_SAVED },
  );
}
