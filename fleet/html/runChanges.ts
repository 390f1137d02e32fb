// What one shard run changed, resource by resource, from the engine's events: the tenant, the
// resource, the step and the names of the fields that differ (never their values: a secret field
// is only named), and the likely leftovers the provider reported with the lines that take or delete
// them. The HTML report (fleet/html) shows them per tenant; the counts stay stepCounts.ts's.
import type { EngineEvent, StepEventMetadata } from "@pulumi/pulumi/automation";
import { LEFTOVER_MARK } from "../../provider/core/leftovers";

/** One resource a run created, updated, replaced or deleted (a preview: would), or failed on. */
export interface ResourceChange {
  tenant: string;
  /** The resource's name in the stack (`acme-webhook-events`). */
  resource: string;
  /** The last part of its type token (`Webhook`). */
  kind: string;
  op: "create" | "update" | "replace" | "delete" | "failed";
  /** The fields the engine says differ (names only). */
  fields: string[];
  /** Why the step failed (its error's first line). */
  error?: string;
}

/** A likely leftover (provider/core/leftovers.ts) with what takes it into a stack or deletes it. */
export interface LeftoverLine {
  tenant: string;
  kind: string;
  id: string;
  /** `DELETE <url>` at the service. */
  deleteLine?: string;
  /** `pulumi import <type> <name> <id>` (native face only). */
  importLine?: string;
}

const TENANT_TYPE = "txmail:index:Tenant";

/** The tenant a resource belongs to: the Tenant component it is a child of ("" for none). */
export function tenantOfParent(parent: string | undefined): string {
  const type = (parent ?? "").split("::")[2] ?? "";
  return type.endsWith(TENANT_TYPE) ? parent!.slice(parent!.lastIndexOf("::") + 2) : "";
}

const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);
const kindOf = (type: string) => type.slice(type.lastIndexOf(":") + 1);

/** Collects one shard run's changes and leftovers, event by event. */
export class ChangeCollector {
  private readonly byUrn = new Map<string, ResourceChange>();
  private readonly tenants = new Map<string, string>();
  private readonly leftovers = new Map<string, LeftoverLine>();

  constructor(private readonly preview: boolean) {}

  add(event: EngineEvent): void {
    const pre = event.resourcePreEvent?.metadata;
    if (pre) this.remember(pre);
    const failed = event.resOpFailedEvent?.metadata;
    if (failed && !failed.type.startsWith("pulumi:")) this.put(failed, "failed");
    const meta = this.preview ? pre : event.resOutputsEvent?.metadata;
    if (meta && !meta.type.startsWith("pulumi:")) {
      const op = opOf(meta);
      if (op) this.put(meta, op);
    }
    const diag = event.diagnosticEvent;
    if (!diag?.urn) return;
    if (diag.severity === "error" && diag.message.trim()) {
      const change = this.byUrn.get(diag.urn);
      const line = diag.message.split("\n").find((l) => l.trim()) ?? "";
      if (change && change.error === undefined) change.error = line.trim().slice(0, 300);
    }
    if (diag.severity === "warning" && diag.message.includes(LEFTOVER_MARK)) this.leftover(diag.urn, diag.message);
  }

  changes(): ResourceChange[] {
    return [...this.byUrn.values()];
  }

  leftoverLines(): LeftoverLine[] {
    return [...this.leftovers.values()];
  }

  private remember(meta: StepEventMetadata): void {
    const state = meta.new ?? meta.old;
    if (state) this.tenants.set(meta.urn, tenantOfParent(state.parent));
  }

  private put(meta: StepEventMetadata, op: ResourceChange["op"]): void {
    const state = meta.new ?? meta.old;
    const tenant = this.tenants.get(meta.urn) ?? tenantOfParent(state?.parent);
    const before = this.byUrn.get(meta.urn);
    // A failed step stays failed (its error is what the reader needs), whatever came before.
    if (before?.op === "failed") return;
    this.byUrn.set(meta.urn, {
      tenant,
      resource: nameOf(meta.urn),
      kind: kindOf(meta.type),
      op,
      fields: [...new Set([...(meta.diffs ?? []), ...(before?.fields ?? [])])].sort(),
      ...(before?.error ? { error: before.error } : {}),
    });
  }

  private leftover(urn: string, message: string): void {
    const mark = new RegExp(`\\(${LEFTOVER_MARK} (\\w+) ([^)\\s]+)\\)`).exec(message);
    if (!mark) return;
    const key = `${mark[1]} ${mark[2]}`;
    if (this.leftovers.has(key)) return;
    const del = /\(DELETE (\S+?)(?:\)| or )/.exec(message);
    const imp = /`(pulumi import [^`]+)`/.exec(message);
    this.leftovers.set(key, {
      tenant: this.tenants.get(urn) ?? "",
      kind: mark[1]!,
      id: mark[2]!,
      ...(del ? { deleteLine: `DELETE ${del[1]}` } : {}),
      ...(imp ? { importLine: imp[1] } : {}),
    });
  }
}

function opOf(meta: StepEventMetadata): ResourceChange["op"] | undefined {
  switch (meta.op) {
    case "create":
    case "import":
      return "create";
    case "update":
      return "update";
    case "replace":
      return "replace";
    case "delete":
      return "delete";
    case "refresh":
      return (meta.diffs ?? []).length > 0 ? "update" : undefined;
    default:
      return undefined;
  }
}
