// pulumi-txmail: `import * as txmail from "pulumi-txmail"`.
export { ApiKey, type ApiKeyArgs } from "./apiKey";
export { SubAccount, type SubAccountArgs } from "./subAccount";
export { SubAccountApiKey, type SubAccountApiKeyArgs } from "./subAccountApiKey";
export { Domain, type DomainArgs, type DnsRecord } from "./domain";
export { DomainVerification, type DomainVerificationArgs } from "./domainVerification";
export { Route, type RouteArgs } from "./route";
export { Webhook, type WebhookArgs, type WebhookEvents } from "./webhook";
export { SmtpCredential, type SmtpCredentialArgs } from "./smtpCredential";
export { AccountMember, type AccountMemberArgs, type MemberRole } from "./accountMember";
export { Suppression, type SuppressionArgs } from "./suppression";
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
