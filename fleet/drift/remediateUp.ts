// The up of a drift remediation (`drift --remediate`): refreshed first, targeted at the drifted
// resources. The refresh writes the service's values into the state, and with state written once
// per run (PULUMI_SKIP_CHECKPOINTS) a failed run still saves it: the next `drift` would compare the
// service with those values and find nothing, while the drift is still there. So the state is
// exported before the run, and a run that failed without creating, replacing or deleting anything
// gets it back: what its updates applied at the service is what the old state records (the tenants
// file's values), and what it did not apply is still drift, reported again. A run that did create,
// replace or delete keeps its state, which alone records those objects.
import type { Deployment, UpOptions } from "@pulumi/pulumi/automation";
import type { StepCounts } from "../stepCounts";

export interface RemediableStack {
  exportStack(): Promise<Deployment>;
  importStack(state: Deployment): Promise<void>;
  up(opts: UpOptions): Promise<unknown>;
}

/** Runs the remediation's up; on failure restores the state it started from when that is safe (see above). */
export async function remediateUp(
  stack: RemediableStack,
  opts: UpOptions & { target: string[] },
  counts: StepCounts,
  say: (note: string) => Promise<void>,
): Promise<void> {
  const before = await stack.exportStack();
  try {
    await stack.up({ ...opts, refresh: true, targetDependents: true });
  } catch (e) {
    if (counts.created + counts.replaced + counts.deleted === 0) {
      await stack.importStack(before);
      await say(
        "the remediation failed: its refresh was not kept (the state is as before the run), so the next drift reports what is still there",
      );
    } else {
      await say("the remediation failed after creating or deleting objects: its state is kept, which records them");
    }
    throw e;
  }
}
