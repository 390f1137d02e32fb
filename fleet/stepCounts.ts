// What a shard run did, counted from the engine's events as they arrive: the counts are known for a
// run that fails half-way too (the engine's own summary comes only with a result), and they give the
// progress lines their step counts. Only the tenants' resources count: the engine's own (the stack,
// default providers) are `pulumi:` types.
import type { EngineEvent, StepEventMetadata } from "@pulumi/pulumi/automation";

export interface StepCounts {
  created: number;
  updated: number;
  replaced: number;
  deleted: number;
  same: number;
  failed: number;
}

export const zeroCounts = (): StepCounts => ({ created: 0, updated: 0, replaced: 0, deleted: 0, same: 0, failed: 0 });

export function changed(c: StepCounts): number {
  return c.created + c.updated + c.replaced + c.deleted;
}

/**
 * Adds one engine event to `counts`. A preview plans (resourcePreEvent); other operations count the
 * steps that finished (resOutputsEvent). A replacement is one `replace` (its create-replacement and
 * delete-replaced halves are not counted again). Returns whether the event counted a step.
 */
export function countEvent(counts: StepCounts, event: EngineEvent, preview: boolean): boolean {
  if (event.resOpFailedEvent) {
    if (ours(event.resOpFailedEvent.metadata)) counts.failed++;
    return true;
  }
  const meta = preview ? event.resourcePreEvent?.metadata : event.resOutputsEvent?.metadata;
  if (!meta || !ours(meta)) return false;
  switch (meta.op) {
    case "create":
    case "import":
      counts.created++;
      break;
    case "update":
      counts.updated++;
      break;
    case "replace":
      counts.replaced++;
      break;
    case "delete":
      counts.deleted++;
      break;
    case "refresh":
      // A refresh step that found the service's object different from state rewrites it.
      if ((meta.diffs ?? []).length > 0) counts.updated++;
      else counts.same++;
      break;
    case "same":
    case "read":
      counts.same++;
      break;
    default:
      return false;
  }
  return true;
}

function ours(meta: StepEventMetadata): boolean {
  return !meta.type.startsWith("pulumi:");
}
