// A create refuses, before sending anything, only when its salt was drawn in this process and the
// engine writes state once per run (provider/core/freshSalt.ts); the e2e proof on both faces is
// test/e2e/killedFastRun.test.ts.
import { drewSalt, requireSavedSalt, SALT_NOT_SAVED, skipsCheckpoints } from "../../../provider/core/freshSalt";

const FAST = { PULUMI_SKIP_CHECKPOINTS: "true" };

describe("the stack's salt is saved before any create uses it", () => {
  it("reads PULUMI_SKIP_CHECKPOINTS as the engine does: 1 or true, any case", () => {
    for (const on of ["1", "true", "TRUE", "True"])
      expect(skipsCheckpoints({ PULUMI_SKIP_CHECKPOINTS: on })).toBe(true);
    for (const off of ["", "0", "false", "yes", " true"])
      expect(skipsCheckpoints({ PULUMI_SKIP_CHECKPOINTS: off })).toBe(false);
    expect(skipsCheckpoints({})).toBe(false);
  });

  it("refuses a salt drawn in this run while state is written once per run, naming the resource and the fix", () => {
    drewSalt("new-salt");
    let thrown: unknown;
    try {
      requireSavedSalt("new-salt", "Webhook 'events'", FAST);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toMatch(/^Webhook 'events': not created: the stack's salt was drawn in this run/);
    expect((thrown as Error).message).toContain("Run `pulumi up` again");
    expect((thrown as { category: string }).category).toBe(SALT_NOT_SAVED);
  });

  it("lets the create through with checkpoints, a salt from state, or no salt", () => {
    drewSalt("drawn-here");
    expect(() => requireSavedSalt("drawn-here", "x", {})).not.toThrow();
    expect(() => requireSavedSalt("drawn-here", "x", { PULUMI_SKIP_CHECKPOINTS: "false" })).not.toThrow();
    expect(() => requireSavedSalt("from-state", "x", FAST)).not.toThrow();
    expect(() => requireSavedSalt(undefined, "x", FAST)).not.toThrow();
  });
});
