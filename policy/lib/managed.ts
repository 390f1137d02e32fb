// What a key manages: the objects whose `connection` input is built from the key (the Tenant's
// children take `connection.apiKey` from the bootstrap key's secret), as the engine records it in
// the property dependencies. The scopes those objects need (provider/api/managementScopes.ts) are
// the key's job, not a broad grant: a management key that holds exactly them is least privilege.
import type { PolicyResource } from "@pulumi/policy";
import { type ManagedObject, scopesToManage } from "../../provider/api/managementScopes";
import { readProp, readStringList } from "./inputs";
import { MANAGED_KINDS, kindOf } from "./resources";

/** The scopes the objects managed with each key need, by key URN; "unknown" when an input is not known yet. */
export function scopesNeededByKey(resources: readonly PolicyResource[]): Map<string, Set<string> | "unknown"> {
  const needs = new Map<string, Set<string> | "unknown">();
  for (const r of resources) {
    const kind = kindOf(r.type, MANAGED_KINDS);
    if (!kind) continue;
    const object = managedObject(kind, r.props);
    for (const key of r.propertyDependencies?.connection ?? []) {
      const had = needs.get(key.urn) ?? new Set<string>();
      if (had === "unknown" || object === "unknown") needs.set(key.urn, "unknown");
      else needs.set(key.urn, new Set([...had, ...scopesToManage(object)]));
    }
  }
  return needs;
}

/** The inputs that decide a managed object's scopes, or "unknown" when one is not known yet. */
function managedObject(kind: string, props: object): ManagedObject | "unknown" {
  const text = (key: string): string | undefined | "unknown" => {
    const r = readProp(props, key);
    return r.state === "unknown" ? "unknown" : r.state === "known" ? String(r.value) : undefined;
  };
  if (kind === "Domain") {
    const domain = text("domain");
    return domain === "unknown" ? "unknown" : { kind, domain: domain ?? "" };
  }
  if (kind === "AccountMember" || kind === "Suppression" || kind === "DomainVerification") return { kind };
  if (kind === "Route") {
    const recipient = text("recipient");
    return recipient === "unknown" ? "unknown" : { kind, recipient };
  }
  const scope = text("scope");
  const domains = readStringList(props, "domains");
  if (scope === "unknown" || domains.state === "unknown") return "unknown";
  if (domains.state === "known" && domains.value.unknown.length > 0) return "unknown";
  const names = domains.state === "known" ? domains.value.strings.map((s) => s.value) : [];
  return { kind: kind as "Webhook" | "SmtpCredential", scope, domains: names };
}
