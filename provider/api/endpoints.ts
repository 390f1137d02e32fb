// The service's endpoints, one entry each: method, path template, the request body's schema, the
// schema of a successful answer, and how a client may retry the call. The client builds its paths
// and decides retries from it, the emulator routes by it, the acceptance run reports by it, and the
// contract pages are checked against it (test/unit/docs/endpointPages.test.ts). It says what
// docs/contract/endpoints/ says; the emulator's /_emulator control surface is not a service
// endpoint and is not here.
import type { z } from "zod";
import { ListOf, MessageResponse } from "./common";
import { ApiKey, ApiKeyWithSecret, CreateApiKey, UpdateApiKey } from "./apiKey";
import { CreateSubAccount, SubAccount, SubAccountUsage, SuspendSubAccount, UpdateSubAccount } from "./subAccount";
import { CreateDomain, Domain, UpdateDomain } from "./domain";
import { CreateRoute, Route, RouteWithSecret, UpdateRoute } from "./route";
import { CreateWebhook, UpdateWebhook, Webhook, WebhookWithSecret } from "./webhook";
import { CreateSmtpCredential, SmtpCredential, SmtpCredentialWithPassword } from "./smtpCredential";
import { AccountMember, AddMember, MemberList } from "./member";
import { CreateSuppression, Suppression, SuppressionsCreated } from "./suppression";
import { CreateConversationMessage, CreateMessage, MessageCreationResponse } from "./message";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * How a client may retry the call (docs/contract/retries.md):
 * - "safe": GET, PUT, DELETE — idempotent by definition, retried;
 * - "keyed-create": a POST create declaring Idempotency-Key — retried only when it carries one;
 * - "one-shot": a POST action the API does not declare retry-safe — exactly one attempt.
 */
export type RetryClass = "safe" | "keyed-create" | "one-shot";

export interface EndpointSpec {
  method: HttpMethod;
  /** The path template, e.g. `/v2/accounts/{account_id}/routes/{route_id}`. */
  template: string;
  /** The request body's schema; absent for an endpoint that takes none. */
  request?: z.ZodType;
  /** The schema of a 2xx body. */
  response: z.ZodType;
  retry: RetryClass;
}

const A = "/v2/accounts/{account_id}";

// Each builder keeps its template's literal type, so paths.ts can type a path's parameters by it.
const read = <T extends string>(template: T, response: z.ZodType) =>
  ({
    method: "GET",
    template,
    response,
    retry: "safe",
  }) satisfies EndpointSpec;
const create = <T extends string>(template: T, request: z.ZodType, response: z.ZodType) =>
  ({
    method: "POST",
    template,
    request,
    response,
    retry: "keyed-create",
  }) satisfies EndpointSpec;
const update = <T extends string>(template: T, request: z.ZodType, response: z.ZodType) =>
  ({
    method: "PUT",
    template,
    request,
    response,
    retry: "safe",
  }) satisfies EndpointSpec;
const remove = <T extends string>(template: T) =>
  ({
    method: "DELETE",
    template,
    response: MessageResponse,
    retry: "safe",
  }) satisfies EndpointSpec;
const action = <T extends string>(template: T, response: z.ZodType, request?: z.ZodType) =>
  ({
    method: "POST",
    template,
    ...(request && { request }),
    response,
    retry: "one-shot",
  }) satisfies EndpointSpec;

const apiKeyEndpoints = <B extends string>(base: B) => ({
  list: read(base, ListOf(ApiKey)),
  create: create(base, CreateApiKey, ApiKeyWithSecret),
  get: read(`${base}/{key_id}`, ApiKey),
  update: update(`${base}/{key_id}`, UpdateApiKey, ApiKey),
  delete: remove(`${base}/{key_id}`),
});
const apiKeys = apiKeyEndpoints(`${A}/api-keys`);
const subAccountApiKeys = apiKeyEndpoints(`${A}/sub-accounts/{sub_account_id}/api-keys`);

/** Every endpoint of the v2 API, by name. */
export const ENDPOINTS = {
  ping: read("/v2/ping", MessageResponse),

  listApiKeys: apiKeys.list,
  createApiKey: apiKeys.create,
  getApiKey: apiKeys.get,
  updateApiKey: apiKeys.update,
  deleteApiKey: apiKeys.delete,

  listSubAccounts: read(`${A}/sub-accounts`, ListOf(SubAccount)),
  createSubAccount: create(`${A}/sub-accounts`, CreateSubAccount, SubAccount),
  subAccountUsage: read(`${A}/sub-accounts/usage`, SubAccountUsage),
  getSubAccount: read(`${A}/sub-accounts/{sub_account_id}`, SubAccount),
  updateSubAccount: update(`${A}/sub-accounts/{sub_account_id}`, UpdateSubAccount, SubAccount),
  deleteSubAccount: remove(`${A}/sub-accounts/{sub_account_id}`),
  suspendSubAccount: action(`${A}/sub-accounts/{sub_account_id}/suspend`, SubAccount, SuspendSubAccount),
  unsuspendSubAccount: action(`${A}/sub-accounts/{sub_account_id}/unsuspend`, SubAccount),

  listSubAccountApiKeys: subAccountApiKeys.list,
  createSubAccountApiKey: subAccountApiKeys.create,
  getSubAccountApiKey: subAccountApiKeys.get,
  updateSubAccountApiKey: subAccountApiKeys.update,
  deleteSubAccountApiKey: subAccountApiKeys.delete,

  listDomains: read(`${A}/domains`, ListOf(Domain)),
  createDomain: create(`${A}/domains`, CreateDomain, Domain),
  getDomain: read(`${A}/domains/{domain}`, Domain),
  updateDomain: update(`${A}/domains/{domain}`, UpdateDomain, Domain),
  deleteDomain: remove(`${A}/domains/{domain}`),
  checkDomainDns: action(`${A}/domains/{domain}/check-dns`, Domain),

  listRoutes: read(`${A}/routes`, ListOf(Route)),
  createRoute: create(`${A}/routes`, CreateRoute, RouteWithSecret),
  getRoute: read(`${A}/routes/{route_id}`, Route),
  updateRoute: update(`${A}/routes/{route_id}`, UpdateRoute, Route),
  deleteRoute: remove(`${A}/routes/{route_id}`),

  listWebhooks: read(`${A}/webhooks`, ListOf(Webhook)),
  createWebhook: create(`${A}/webhooks`, CreateWebhook, WebhookWithSecret),
  getWebhook: read(`${A}/webhooks/{webhook_id}`, Webhook),
  updateWebhook: update(`${A}/webhooks/{webhook_id}`, UpdateWebhook, Webhook),
  deleteWebhook: remove(`${A}/webhooks/{webhook_id}`),

  // No update endpoint: every change is a replacement.
  listSmtpCredentials: read(`${A}/smtp-credentials`, ListOf(SmtpCredential)),
  createSmtpCredential: create(`${A}/smtp-credentials`, CreateSmtpCredential, SmtpCredentialWithPassword),
  getSmtpCredential: read(`${A}/smtp-credentials/{smtp_credential_id}`, SmtpCredential),
  deleteSmtpCredential: remove(`${A}/smtp-credentials/{smtp_credential_id}`),

  listSuppressions: read(`${A}/suppressions`, ListOf(Suppression)),
  createSuppressions: create(`${A}/suppressions`, CreateSuppression, SuppressionsCreated),
  /** Addressed by the query, not a path segment: `?email=…[&domain=…]`. */
  deleteSuppression: remove(`${A}/suppressions`),
  deleteAllSuppressions: remove(`${A}/suppressions/all`),

  // Not paginated; no update endpoint: a role change is remove + add.
  listMembers: read(`${A}/members`, MemberList),
  addMember: create(`${A}/members`, AddMember, AccountMember),
  removeMember: remove(`${A}/members/{user_id}`),

  sendMessage: create(`${A}/messages`, CreateMessage, MessageCreationResponse),
  sendConversationMessage: create(`${A}/messages/conversation`, CreateConversationMessage, MessageCreationResponse),
} as const satisfies Record<string, EndpointSpec>;

export type EndpointName = keyof typeof ENDPOINTS;

/** The endpoints as a list, in the table's order. */
export const ENDPOINT_LIST: readonly EndpointSpec[] = Object.values(ENDPOINTS);

/** `"METHOD /template"`, the way logs, counters and docs name an endpoint. */
export const endpointKey = (e: { method: string; template: string }): string => `${e.method} ${e.template}`;

/** The template's parameter names in order, e.g. ["account_id", "route_id"]. */
export function templateParams(template: string): string[] {
  return [...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
}

/**
 * The path of a template with its parameters filled in, each percent-encoded (ids are uuids, but
 * a domain name is user input).
 */
export function fillTemplate(template: string, params: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

/** A regular expression that matches the paths of a template (no query), one segment per parameter. */
export function templatePattern(template: string): RegExp {
  const escaped = template
    .split(/\{[a-z_]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]+");
  return new RegExp(`^${escaped}$`);
}

/** Count of literal characters: `/sub-accounts/usage` is more specific than `/sub-accounts/{sub_account_id}`. */
const literalLength = (template: string) => template.replace(/\{[a-z_]+\}/g, "").length;

const BY_SPECIFICITY = ENDPOINT_LIST.map((e) => ({ e, re: templatePattern(e.template) })).sort(
  (a, b) => literalLength(b.e.template) - literalLength(a.e.template),
);

/** The endpoint a request is (path with or without its query and a trailing slash), or undefined. */
export function endpointOf(method: string, path: string): EndpointSpec | undefined {
  const bare = path.split("?")[0]!.replace(/(.)\/+$/, "$1");
  return BY_SPECIFICITY.find((p) => p.e.method === method && p.re.test(bare))?.e;
}
