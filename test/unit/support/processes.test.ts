// support/processes.ts's bounded runs, which every CLI-driving test relies on: a command that ends is
// answered with its output; one that outlives its bound is killed with all it started, and the
// failure names what its process group held; `until` gives up with what it waited for.
import { running, spawnBounded, until } from "../../../support/processes";

it("answers a command that ends with its exit code and output", async () => {
  const { done } = spawnBounded("sh", ["-c", "echo out; echo err >&2; exit 3"], { what: "sh", timeoutMs: 10_000 });
  await expect(done).resolves.toEqual({ code: 3, signal: null, stdout: "out\n", stderr: "err\n" });
});

it("kills a command past its bound, with what it started, naming what its group held", async () => {
  const { child, done } = spawnBounded("sh", ["-c", "sleep 30 & echo started; wait"], {
    what: "the sleeper",
    timeoutMs: 1_000,
  });
  await expect(done).rejects.toThrow(
    /the sleeper did not end within 1000 ms: killed its process group \d+, which held:\n.*sleep 30/s,
  );
  await until("the group to be gone", async () => !running(child.pid!), 10_000);
});

it("says what it waited for when the wait runs out", async () => {
  await expect(until("nothing", async () => false, 200)).rejects.toThrow("timed out waiting for nothing");
});
