// `txmail-fleet rotate`: the credentials on a schedule that are due (or, with --older-than, whose
// current key is at least that old) rotated across the fleet, and the previous ones past their
// overlap revoked — by the provider's own rotation (provider/core/rotating), in a targeted `up` of
// only the shards holding something due (fleet/rotate/run.ts).
import type { EngineEvent } from "@pulumi/pulumi/automation";
import type { FleetCommand } from "../command";
import type * as RotateRun from "../rotate/run";
import type { RotationOutcome } from "../rotate/types";

export const rotateCommand: FleetCommand = {
  name: "rotate",
  flags: [["--older-than", "olderThan"]],
  needs: "stacks",
  shard: {
    preview: false,
    // It never makes a shard stack: one that does not exist has nothing to rotate.
    readsOnly: true,
    run: async (stack, job, { common, send }) => {
      const targets = new Set(job.rotate ?? []);
      const outcomes = new Map<string, RotationOutcome>();
      const onEvent = (event: EngineEvent) => {
        common.onEvent?.(event);
        const meta = event.resOutputsEvent?.metadata;
        if (meta && targets.has(meta.urn) && meta.new) outcomes.set(meta.urn, outcomeOf(meta.urn, meta.new.outputs));
      };
      try {
        // The credentials due and what depends on them: a rotated bootstrap key is the connection of
        // its tenant's other objects, whose state must take the new key before the old one is revoked.
        // The stack's outputs (the tenants' credentials) are always updated (the root stack is targeted).
        await stack.up({ ...common, onEvent, target: [...targets], targetDependents: true });
      } finally {
        await send({ type: "rotation", outcomes: [...outcomes.values()] });
      }
    },
  },
  run: (opts, fleet, io) => (require("../rotate/run") as typeof RotateRun).runRotate(opts, fleet, io),
};

/** The outputs the report needs, and nothing else (the engine's events mask secrets; these are none). */
function outcomeOf(urn: string, outputs: Record<string, unknown> | undefined): RotationOutcome {
  const o = outputs ?? {};
  const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  return {
    urn,
    rotations: typeof o.rotations === "number" ? o.rotations : 0,
    hasPrevious: typeof o.previousId === "string",
    rotatedAt: text(o.rotatedAt),
    nextRotationAt: text(o.nextRotationAt),
    previousRevokeAt: text(o.previousRevokeAt),
  };
}
