// The Tenant's arguments from a Construct request's inputs: what a TypeScript program would pass
// to `new Tenant(name, args)`, with the parts whose entries decide which resources exist checked to
// be known, and each problem named by its field.
import type { TenantArgs } from "../sdk/nodejs/tenant";
import { constructInputs, requirePlain, type Json } from "./constructInputs";

export const TENANT_TYPE = "txmail:index:Tenant";

/** Objects read whole (one key, one domain, its verification). */
const SHAPED_OBJECTS = ["bootstrapKey", "domain", "domainVerification"] as const;
/** Records of named parts: each entry becomes one resource. */
const SHAPED_RECORDS = ["apiKeys", "routes", "webhooks", "smtpCredentials", "members", "suppressions"] as const;

export function tenantArgs(
  name: string,
  raw: Record<string, Json>,
  dependencies: ReadonlyMap<string, readonly string[]>,
): TenantArgs {
  const args = constructInputs(raw, dependencies);
  const component = `${TENANT_TYPE} '${name}'`;
  if (args.website === undefined) throw new Error(`${component}: website is required`);
  for (const field of SHAPED_OBJECTS) requirePlain(component, field, args[field]);
  for (const field of SHAPED_RECORDS) {
    requirePlain(component, field, args[field]);
    for (const [entry, value] of Object.entries((args[field] ?? {}) as Record<string, unknown>)) {
      requirePlain(component, `${field}.${entry}`, value);
    }
  }
  return args as unknown as TenantArgs;
}
