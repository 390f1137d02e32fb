// A shard stack locked by another run. Self-managed backends (file, S3-compatible buckets,
// PostgreSQL) lock a stack while an operation runs, with a lock object that names its holder
// (user@host, pid, time); a second run of the same stack fails before the engine starts. That is
// the fleet's guard when two runners are given the same share, and it stays behind when a runner
// dies mid-run (a killed CI job): the engine's own remedy, `pulumi cancel`, removes every lock of
// the stack, so the fleet says when to use it and when to wait.

/** The engine's text ("the stack is currently locked by N lock(s). …" and one line per holder). */
const LOCKED = /the stack is currently locked by \d+ lock\(s\)/;

/** The lock's holders as the engine names them ("…/shard-001/<id>.json: created by root@ci-7 (pid 42) at …"). */
function holders(message: string): string[] {
  return message
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => / created by .+ \(pid \d+\) at /.test(l))
    .map((l) => l.slice(l.lastIndexOf(": created by ") + 2));
}

/**
 * The shard's error when another run holds its lock: who holds it, and what to do — wait if that
 * run is alive, `pulumi cancel` if it died. Undefined for any other error.
 */
export function lockedShardError(message: string, stack: { project: string; name: string }): string | undefined {
  if (!LOCKED.test(message)) return undefined;
  // One run may hold a stack by two lock objects (the CLI opens the backend twice): name it once.
  const held = [...new Set(holders(message))];
  return (
    `${stack.name} is locked by another run (${held.join("; ") || "holder not named"}). ` +
    `If that run is still going (another runner given the same share), let it finish: do not unlock. ` +
    `If it died (a killed job), unlock the shard with ` +
    `'pulumi cancel --yes --stack organization/${stack.project}/${stack.name}' (same PULUMI_BACKEND_URL), ` +
    `then run this command again`
  );
}
