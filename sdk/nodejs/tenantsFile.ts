// The declarative tenants file (one entry per tenant → Tenant component arguments). Parsing lives
// in internal/tenantsFileParser.ts and is loaded on first use: a program that only declares
// resources does not load yaml and zod at startup.
import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import type * as Parser from "./internal/tenantsFileParser";
import type { TenantEntry } from "./internal/tenantsFileParser";
import type { TenantArgs } from "./tenant";

export type { TenantEntry, TenantsFile } from "./internal/tenantsFileParser";

export { TenantsFileError } from "./internal/tenantsFileError";

/** Parses and validates a tenants file; throws one error listing every problem with its position. */
export function loadTenantsFile(file: string): Parser.TenantsFile {
  return parseTenants(fs.readFileSync(file, "utf8"), file);
}

export function parseTenants(text: string, file = "tenants.yaml"): Parser.TenantsFile {
  return (require("./internal/tenantsFileParser") as typeof Parser).parseTenants(text, file);
}

const EVENT_FLAG = (e: string) => `on${e[0].toUpperCase()}${e.slice(1)}`;

/** Tenant component arguments for one entry of the file. */
export function tenantArgs(t: TenantEntry): TenantArgs {
  const named = <T>(rec: Record<string, T> | undefined, f: (n: string, v: T) => unknown) =>
    Object.fromEntries(Object.entries(rec ?? {}).map(([n, v]) => [n, f(n, v)]));
  return {
    displayName: t.displayName ?? t.name,
    website: t.website,
    monthlyCredit: t.monthlyCredit,
    suspended: t.suspended,
    suspensionReason: t.suspensionReason,
    bootstrapKey: t.bootstrapKey,
    apiKeys: t.apiKeys,
    domain: t.domain ? { domain: t.domain, waitForVerificationSeconds: t.waitForVerificationSeconds } : undefined,
    domainVerification: t.domainVerification,
    routes: named(t.routes, (n, r) => ({ ...r, name: r.name ?? n })) as TenantArgs["routes"],
    webhooks: named(t.webhooks, (n, w) => {
      const { events, ...rest } = w;
      return { ...rest, name: w.name ?? n, ...Object.fromEntries((events ?? []).map((e) => [EVENT_FLAG(e), true])) };
    }) as TenantArgs["webhooks"],
    smtpCredentials: named(t.smtpCredentials, (n, s) => ({ ...s, name: s.name ?? n })) as TenantArgs["smtpCredentials"],
    members: t.members,
    suppressions: t.suppressions,
  };
}

/**
 * Tenant component options for one entry: its former names as aliases, so a renamed tenant keeps its
 * objects. The component's children are named after it (`acme-bootstrap`, …) and inherit the alias,
 * as Pulumi gives a child whose name starts with its parent's name; only values derived from the name
 * (the default display name and key labels) follow it, as in-place updates.
 */
export function tenantOptions(t: TenantEntry): pulumi.ComponentResourceOptions | undefined {
  return t.formerNames?.length ? { aliases: t.formerNames.map((name) => ({ name })) } : undefined;
}
