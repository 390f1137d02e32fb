import { lockedShardError } from "../../../fleet/stackLock";

// The engine's text for a stack locked in a self-managed backend (pkg/backend/diy/lock.go), as the
// Automation API passes it on: the command line, then the CLI's stderr.
const engineError = [
  "code: 255",
  " stdout: ",
  " stderr: error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.",
  "  postgres://****:****@127.0.0.1:5432/postgres/.pulumi/locks/organization/txmail-fleet/shard-003/0d9c.json?sslmode=disable: created by root@ci-7 (pid 4242) at 2026-11-25T17:01:02Z",
  // The CLI may hold one stack by two lock objects (seen with `up`): the same holder.
  "  postgres://****:****@127.0.0.1:5432/postgres/.pulumi/locks/organization/txmail-fleet/shard-003/77ab.json?sslmode=disable: created by root@ci-7 (pid 4242) at 2026-11-25T17:01:02Z",
].join("\n");
const stack = { project: "txmail-fleet", name: "shard-003" };

describe("a shard locked by another run", () => {
  it("names the shard, the lock's holder, and both remedies: wait, or pulumi cancel with the stack's full name", () => {
    expect(lockedShardError(engineError, stack)).toBe(
      "shard-003 is locked by another run (created by root@ci-7 (pid 4242) at 2026-11-25T17:01:02Z). " +
        "If that run is still going (another runner given the same share), let it finish: do not unlock. " +
        "If it died (a killed job), unlock the shard with " +
        "'pulumi cancel --yes --stack organization/txmail-fleet/shard-003' (same PULUMI_BACKEND_URL), " +
        "then run this command again",
    );
  });

  it("is not claimed for other errors", () => {
    expect(lockedShardError("error: update failed", stack)).toBeUndefined();
  });
});
