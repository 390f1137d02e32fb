// A failed remediation keeps no refresh it did not act on (fleet/drift/remediateUp.ts), so the next
// drift still reports what it found.
import type { Deployment } from "@pulumi/pulumi/automation";
import { remediateUp } from "../../../../fleet/drift/remediateUp";
import { zeroCounts } from "../../../../fleet/stepCounts";

function fakeStack(fail: boolean) {
  const state = { current: { version: 3, deployment: { resources: ["drifted as recorded"] } } as Deployment };
  const stack = {
    imports: 0,
    exportStack: async () => structuredClone(state.current),
    importStack: async (d: Deployment) => {
      stack.imports++;
      state.current = d;
    },
    up: async () => {
      // The refresh's values are saved whether or not the run succeeds (state written once per run).
      state.current = { version: 3, deployment: { resources: ["as the service holds it"] } };
      if (fail) throw new Error("403: this machine's address is not on the key's allow list");
    },
  };
  return { stack, state };
}

describe("drift remediation's up", () => {
  const opts = { target: ["urn:pulumi:shard-001::p::txmail:index:Route::r"] };

  it("failed without creating or deleting anything: the state before the run is put back", async () => {
    const { stack, state } = fakeStack(true);
    const notes: string[] = [];
    await expect(remediateUp(stack, opts, zeroCounts(), async (n) => void notes.push(n))).rejects.toThrow(/403/);
    expect(state.current.deployment).toEqual({ resources: ["drifted as recorded"] });
    expect(notes[0]).toMatch(/its refresh was not kept/);
  });

  it("failed after creating an object: its state is kept (it alone records the object)", async () => {
    const { stack, state } = fakeStack(true);
    const counts = { ...zeroCounts(), created: 1 };
    await expect(remediateUp(stack, opts, counts, async () => undefined)).rejects.toThrow(/403/);
    expect(state.current.deployment).toEqual({ resources: ["as the service holds it"] });
    expect(stack.imports).toBe(0);
  });

  it("succeeded: nothing put back", async () => {
    const { stack } = fakeStack(false);
    await remediateUp(stack, opts, zeroCounts(), async () => undefined);
    expect(stack.imports).toBe(0);
  });
});
