// What a key manages: the objects whose `connection` input is built from the key (the Tenant's
// children take `connection.apiKey` from the bootstrap key's secret), as the engine records it in
// the property dependencies. The scopes those objects need (provider/api/managementScopes.ts) are
// the key's job, not a broad grant: a management key that holds exactly them is least privilege.
import type { PolicyResource } from "@pulumi/policy";
import type { Management } from "../../provider/api/kind";
import { KIND_FACTS, type ManagedKind } from "../../provider/api/kinds";
import { type ManagedObject, scopesToManage } from "../../provider/api/managementScopes";
import { readProp, readStringList } from "./inputs";
import { MANAGED_KINDS, kindOf } from "./resources";

/** The scopes the objects managed with each key need, by key URN; "unknown" when an input is not known yet. */
export function scopesNeededByKey(resources: readonly PolicyResource[]): Map<string, Set<string> | "unknown"> {
  const needs = new Map<string, Set<string> | "unknown">();
  for (const r of resources) {
    const kind = kindOf(r.type, MANAGED_KINDS);
    if (!kind) continue;
    const object = managedObject(kind as ManagedKind, r.props);
    for (const key of r.propertyDependencies?.connection ?? []) {
      const had = needs.get(key.urn) ?? new Set<string>();
      if (had === "unknown" || object === "unknown") needs.set(key.urn, "unknown");
      else needs.set(key.urn, new Set([...had, ...scopesToManage(object)]));
    }
  }
  return needs;
}

/**
 * The inputs that decide a managed object's scopes (those its kind's `manage` reads,
 * provider/api/kind.ts), or "unknown" when one is not known yet.
 */
function managedObject(kind: ManagedKind, props: object): ManagedObject | "unknown" {
  const { manage } = KIND_FACTS[kind] as { manage: Management };
  const object: Record<string, string | readonly string[] | undefined> = { kind };
  for (const [input, shape] of Object.entries(manage.inputs)) {
    if (shape === "list") {
      const list = readStringList(props, input);
      if (list.state === "unknown" || (list.state === "known" && list.value.unknown.length > 0)) return "unknown";
      object[input] = list.state === "known" ? list.value.strings.map((s) => s.value) : undefined;
    } else {
      const r = readProp(props, input);
      if (r.state === "unknown") return "unknown";
      object[input] = r.state === "known" ? String(r.value) : undefined;
    }
  }
  return object as ManagedObject;
}
