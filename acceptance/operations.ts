// The service's operations as the contract report groups them: method + path template, and the
// provider's own schema for a successful answer (provider/api), so the report says whether what the
// service sent parses with the schemas the provider reads it with.
import type { z } from "zod";
import {
  AccountMember,
  ApiKey,
  ApiKeyWithSecret,
  Domain,
  ListOf,
  MemberList,
  MessageResponse,
  Route,
  RouteWithSecret,
  SmtpCredential,
  SmtpCredentialWithPassword,
  SubAccount,
  SubAccountUsage,
  Suppression,
  SuppressionsCreated,
  Webhook,
  WebhookWithSecret,
} from "../provider/api";

export interface Operation {
  method: string;
  /** The path template, e.g. `/v2/accounts/{account_id}/routes/{route_id}`. */
  template: string;
  /** The schema of a 2xx body. */
  schema: z.ZodType;
}

const A = "/v2/accounts/{account_id}";
const keys = (base: string): Array<[string, string, z.ZodType]> => [
  ["GET", base, ListOf(ApiKey)],
  ["POST", base, ApiKeyWithSecret],
  ["GET", `${base}/{key_id}`, ApiKey],
  ["PUT", `${base}/{key_id}`, ApiKey],
  ["DELETE", `${base}/{key_id}`, MessageResponse],
];
/** List, create (with the one-time secret), get, update, delete. */
const crud = (base: string, id: string, item: z.ZodType, created: z.ZodType): Array<[string, string, z.ZodType]> => [
  ["GET", base, ListOf(item)],
  ["POST", base, created],
  ["GET", `${base}/{${id}}`, item],
  ["PUT", `${base}/{${id}}`, item],
  ["DELETE", `${base}/{${id}}`, MessageResponse],
];

export const OPERATIONS: Operation[] = (
  [
    ["GET", "/v2/ping", MessageResponse],
    ...keys(`${A}/api-keys`),
    ["GET", `${A}/sub-accounts/usage`, SubAccountUsage],
    ...crud(`${A}/sub-accounts`, "sub_account_id", SubAccount, SubAccount),
    ["POST", `${A}/sub-accounts/{sub_account_id}/suspend`, SubAccount],
    ["POST", `${A}/sub-accounts/{sub_account_id}/unsuspend`, SubAccount],
    ...keys(`${A}/sub-accounts/{sub_account_id}/api-keys`),
    ...crud(`${A}/domains`, "domain", Domain, Domain),
    ["POST", `${A}/domains/{domain}/check-dns`, Domain],
    ...crud(`${A}/routes`, "route_id", Route, RouteWithSecret),
    ...crud(`${A}/webhooks`, "webhook_id", Webhook, WebhookWithSecret),
    ...crud(`${A}/smtp-credentials`, "smtp_credential_id", SmtpCredential, SmtpCredentialWithPassword),
    ["GET", `${A}/suppressions`, ListOf(Suppression)],
    ["POST", `${A}/suppressions`, SuppressionsCreated],
    ["DELETE", `${A}/suppressions`, MessageResponse],
    ["DELETE", `${A}/suppressions/all`, MessageResponse],
    ["GET", `${A}/members`, MemberList],
    ["POST", `${A}/members`, AccountMember],
    ["DELETE", `${A}/members/{user_id}`, MessageResponse],
  ] as Array<[string, string, z.ZodType]>
).map(([method, template, schema]) => ({ method, template, schema }));

const patterns = OPERATIONS.map((op) => ({
  op,
  re: new RegExp(`^${op.template.replace(/\{[a-z_]+\}/g, "[^/]+")}$`),
  // Literal segments first: `/sub-accounts/usage` before `/sub-accounts/{sub_account_id}`.
  literal: op.template.replace(/\{[a-z_]+\}/g, "").length,
})).sort((a, b) => b.literal - a.literal);

/** The operation a request is (path without the query), or undefined for one the table does not know. */
export function operationOf(method: string, path: string): Operation | undefined {
  return patterns.find((p) => p.op.method === method && p.re.test(path))?.op;
}
