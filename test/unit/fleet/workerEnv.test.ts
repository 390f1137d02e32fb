// The engine settings the fleet gives its shard runs (fleet/shardRun.ts workerEnv): state written once
// per run and parallel diffs by default, --save-every-step to write after every step, a value the
// user set kept, and PATH untouched (the engine acquires the native face's plugin by name and version).
import { workerEnv } from "../../../fleet/shardRun";

describe("the shard runs' engine settings", () => {
  it("defaults: state written once per run, diffs in parallel", () => {
    expect(workerEnv(false, {})).toMatchObject({ PULUMI_SKIP_CHECKPOINTS: "true", PULUMI_PARALLEL_DIFF: "true" });
  });

  it("--save-every-step: the engine's default, whatever the environment says", () => {
    expect(workerEnv(true, {}).PULUMI_SKIP_CHECKPOINTS).toBe("false");
    expect(workerEnv(true, { PULUMI_SKIP_CHECKPOINTS: "true" }).PULUMI_SKIP_CHECKPOINTS).toBe("false");
  });

  it("a value the user set is kept", () => {
    const env = workerEnv(false, { PULUMI_SKIP_CHECKPOINTS: "false", PULUMI_PARALLEL_DIFF: "false", OTHER: "x" });
    expect(env).toMatchObject({ PULUMI_SKIP_CHECKPOINTS: "false", PULUMI_PARALLEL_DIFF: "false", OTHER: "x" });
  });

  it("leaves PATH as it is: no plugin script of the package's ahead of the one the engine acquires", () => {
    expect(workerEnv(false, { PATH: "/usr/local/bin:/usr/bin" }).PATH).toBe("/usr/local/bin:/usr/bin");
    expect(workerEnv(false, {})).not.toHaveProperty("PATH");
  });
});

describe("the early-rotation period in the shard runs' environment", () => {
  it("is set only when `rotate --older-than` gives it; one inherited from the shell is removed", () => {
    expect(workerEnv(false, {}, "7d").TXMAIL_ROTATE_OLDER_THAN).toBe("7d");
    expect(workerEnv(false, { TXMAIL_ROTATE_OLDER_THAN: "1h" }, "7d").TXMAIL_ROTATE_OLDER_THAN).toBe("7d");
    // An up (or a rotate without --older-than) never rotates early, whatever the shell exported.
    expect(workerEnv(false, { TXMAIL_ROTATE_OLDER_THAN: "1h", OTHER: "x" })).not.toHaveProperty(
      "TXMAIL_ROTATE_OLDER_THAN",
    );
    expect(workerEnv(false, { TXMAIL_ROTATE_OLDER_THAN: "1h", OTHER: "x" }).OTHER).toBe("x");
  });
});
