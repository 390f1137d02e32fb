// Drift from the engine's events of a refresh preview (`pulumi refresh --preview-only`): the engine
// reads every resource from the service and tells, per resource, the state it recorded (`old`) and
// what the service holds now (`new`), or that the object is gone (`delete`). Nothing is written, to
// the stack or to the service. The fields compared are those the kind's declaration sends to the
// service (`apiFields`, `stateFields`), and an output that calls for the kind's reconcile again
// once the service holds it (`unsettled`: a DomainVerification no longer verified): counters and
// timestamps the service moves by itself are not drift. The same on both faces (their outputs carry
// the same names).
import type { EngineEvent, StepEventMetadata, StepEventStateMetadata } from "@pulumi/pulumi/automation";
import { kindOfToken } from "../../provider/api/typeTokens";
import type { Kind } from "../../provider/api/kinds";
import { canonicalJson } from "../../provider/core/canonicalJson";
import { isSecretValue } from "../../provider/core/secretMarks";
import { declarations } from "../../provider/resources";
import { type FieldChange, type ManagedObject, type ResourceDrift, SECRET } from "./types";

const TENANT_TYPE = "txmail:index:Tenant";

/** The fields of a kind that the program sets and the service may change. */
export function comparedFields(kind: Kind): string[] {
  const d = declarations[kind];
  const writeOnly = new Set<string>(d.writeOnly ?? []);
  return [...new Set([...d.apiFields, ...(d.stateFields ?? [])])].filter((f) => !writeOnly.has(f));
}

/**
 * The fields whose values differ; a secret is never shown, only that it changed. Besides the
 * compared fields: the outputs that call for the kind's reconcile again (`unsettled`) as the service
 * holds them but not as the stack recorded them — a DomainVerification whose record was removed
 * since (`verified` true → false), which the next `up` verifies again.
 */
export function changedFields(
  kind: Kind,
  recorded: Record<string, unknown>,
  service: Record<string, unknown>,
): FieldChange[] {
  const out: FieldChange[] = [];
  const unsettled = declarations[kind].unsettled;
  const unsettledRecorded = new Set(unsettled?.(recorded) ?? []);
  const newlyUnsettled = (unsettled?.(service) ?? []).filter((f) => !unsettledRecorded.has(f));
  for (const field of new Set([...comparedFields(kind), ...newlyUnsettled])) {
    const [a, b] = [recorded[field], service[field]];
    if (isSecretValue(a) || isSecretValue(b)) {
      // Both masked: the events cannot tell, and both were read from the same service.
      if (isSecretValue(a) && isSecretValue(b)) continue;
      out.push({ field, recorded: SECRET, service: SECRET });
      continue;
    }
    if (canonicalJson(a ?? null) !== canonicalJson(b ?? null))
      out.push({ field, recorded: a ?? null, service: b ?? null });
  }
  return out;
}

/** The tenant a resource belongs to: the Tenant component it is a child of. */
function tenantOf(state: StepEventStateMetadata): string {
  const parent = state.parent ?? "";
  const type = parent.split("::")[2] ?? "";
  return type.endsWith(TENANT_TYPE) ? parent.slice(parent.lastIndexOf("::") + 2) : "";
}

/** What one shard's refresh preview found, built event by event. */
export class DriftCollector {
  readonly drift: ResourceDrift[] = [];
  readonly managed: ManagedObject[] = [];
  /** The sub account of each tenant: its SubAccount resource's id, and when the service made it. */
  readonly subAccounts = new Map<string, { id: string; createdAt?: string }>();
  /** Each tenant's bootstrap key's scopes (what the inventory may list with it). */
  readonly bootstrapScopes = new Map<string, string[]>();
  /** Each tenant's domains (its Domain resources' names). */
  readonly domains = new Map<string, string[]>();
  /** Each of the stack's resources of a txmail kind, as its refresh started: what the stack recorded. */
  private readonly recorded = new Map<string, { tenant: string; kind: Kind; id: string }>();
  private readonly failed = new Map<string, string>();

  add(event: EngineEvent): void {
    const started = event.resourcePreEvent?.metadata;
    if (started) this.record(started);
    const failedStep = event.resOpFailedEvent?.metadata;
    if (failedStep && !this.failed.has(failedStep.urn)) this.failed.set(failedStep.urn, "its refresh failed");
    const diag = event.diagnosticEvent;
    if (diag?.urn && diag.severity === "error") this.failed.set(diag.urn, firstLine(diag.message));
    const meta = event.resOutputsEvent?.metadata;
    const recorded = meta && this.recorded.get(meta.urn);
    if (!meta || !recorded) return;
    const base = { ...recorded, resource: nameOf(meta.urn), urn: meta.urn };
    if (meta.op === "delete") {
      this.drift.push({ ...base, status: "deleted", fields: [] });
    } else if (meta.old && meta.new) {
      // Not only `update`: the engine calls a refresh `same` when the inputs it recorded are unchanged,
      // whatever the service now holds in fields the program leaves to it (a monthly credit it never set).
      const fields = changedFields(recorded.kind, meta.old.outputs ?? {}, meta.new.outputs ?? {});
      if (fields.length > 0) this.drift.push({ ...base, status: "changed", fields });
    }
  }

  /** Resources whose refresh failed, once the run is over (the error comes as a diagnostic). */
  failures(): ResourceDrift[] {
    const out: ResourceDrift[] = [];
    for (const [urn, error] of this.failed) {
      const recorded = this.recorded.get(urn);
      if (recorded) out.push({ ...recorded, resource: nameOf(urn), urn, status: "failed", fields: [], error });
    }
    return out;
  }

  private record(meta: StepEventMetadata): void {
    const state = meta.old ?? meta.new;
    const kind = state && kindOfToken(state.type);
    if (!state || !kind) return;
    const recorded = { tenant: tenantOf(state), kind, id: state.id ?? "" };
    this.recorded.set(meta.urn, recorded);
    this.managed.push(recorded);
    const scopes = state.outputs?.scopes;
    // The Tenant names its bootstrap key `<tenant>-bootstrap` (sdk/nodejs/tenant.ts).
    if (kind === "SubAccountApiKey" && nameOf(meta.urn) === `${recorded.tenant}-bootstrap` && Array.isArray(scopes)) {
      this.bootstrapScopes.set(recorded.tenant, scopes.map(String));
    }
    const domain = state.outputs?.domain;
    if (kind === "Domain" && typeof domain === "string") {
      this.domains.set(recorded.tenant, [...(this.domains.get(recorded.tenant) ?? []), domain]);
    }
    if (kind === "SubAccount") {
      const createdAt = state.outputs?.createdAt;
      this.subAccounts.set(recorded.tenant, {
        id: recorded.id,
        ...(typeof createdAt === "string" ? { createdAt } : {}),
      });
    }
  }
}

const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);
const firstLine = (s: string) => (s.split("\n").find((l) => l.trim()) ?? "").trim().slice(0, 300);
