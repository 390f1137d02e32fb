// pulumi-txmail: `import * as txmail from "pulumi-txmail"`.
// The resource classes, generated from the declarations (`npm run gen:sdk`).
export * from "./generated/kinds";
export type { DnsRecord, MemberRole, WebhookEvents } from "./kindTypes";
export type { ConnectionArgs } from "./internal/common";
export { RecordsToVerify, Role, Scope, Status } from "./enums";
export { Provider, type ProviderArgs } from "./provider";
export {
  getSubAccountUsage,
  getSubAccountUsageOutput,
  lookupApiKey,
  lookupApiKeyOutput,
  lookupDomain,
  lookupDomainOutput,
  lookupRoute,
  lookupRouteOutput,
  lookupWebhook,
  lookupWebhookOutput,
  type LookupArgs,
} from "./functions";
export { Tenant, type TenantArgs, type TenantKeyArgs, appKeyScopes, bootstrapKeyScopes } from "./tenant";
export { tenantCredentials, type TenantCredentials } from "./tenantCredentials";
export {
  loadTenantsFile,
  parseTenants,
  tenantArgs,
  tenantOptions,
  TenantsFileError,
  type TenantEntry,
} from "./tenantsFile";
