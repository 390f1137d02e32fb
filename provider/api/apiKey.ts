// API keys of an account, and of a sub account (same record, managed by the parent).
import { z } from "zod";
import { canonicalizeAllowList } from "./cidr";
import { Timestamp, Uuid } from "./common";
import type { CreateForm } from "./createForm";
import { ListOf } from "./common";
import { A, create, read, remove, update } from "./endpoint";
import { defineKind } from "./kind";

/**
 * The contract shows `scopes` as strings (docs/contract/endpoints/api-keys.md#records); the public service has been seen returning objects with a
 * `scope` string. Accept both and normalise to strings so nothing downstream sees the difference.
 */
const ScopeEntry = z.union([z.string(), z.object({ scope: z.string() }).transform((s) => s.scope)]);

export const ApiKey = z.object({
  object: z.literal("api_key").describe("The record's type: always `api_key`."),
  id: Uuid.describe("The key's id."),
  created_at: Timestamp.describe("When the key was created (RFC 3339)."),
  updated_at: Timestamp.describe("When the key was last changed (RFC 3339)."),
  last_used_at: Timestamp.nullable().describe("When the key last authenticated a request (RFC 3339); unset if never."),
  account_id: Uuid.describe("The account the key authenticates as (for a sub-account key: the sub account)."),
  label: z.string().describe("Label shown in the service's console."),
  public_key: z.string().describe("The key's public part, which names it without revealing its secret."),
  scopes: z
    .array(ScopeEntry)
    .describe("What the key may do: scopes such as `messages:send:all` or `routes:write:{domain}`."),
  ip_allow_list: z.array(z.string()).describe("Canonical CIDR blocks the key may be used from; empty: no restriction."),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** 201 of key creation (and its idempotent replay within 5 minutes): the only place `secret_key` appears. */
export const ApiKeyWithSecret = ApiKey.extend({
  secret_key: z.string().describe("The key itself, to send as `Authorization: Bearer <key>`."),
});
export type ApiKeyWithSecret = z.infer<typeof ApiKeyWithSecret>;

export const CreateApiKey = z.strictObject({
  label: z.string().min(1).max(255),
  scopes: z.array(z.string()).min(1, "at least one scope is required"),
  ip_allow_list: z.array(z.string()).optional(),
});
export type CreateApiKey = z.infer<typeof CreateApiKey>;

/**
 * What a key's create stores (createForm.ts): scopes de-duplicated; the allow list canonical
 * (docs/contract/allow-lists.md), empty (no restriction) when left out.
 */
export const CreateApiKeyForm = {
  defaults: { ip_allow_list: [] },
  stored: {
    scopes: (scopes) => [...new Set(scopes)],
    ip_allow_list: (list) => canonicalizeAllowList(list).canonical,
  },
} as const satisfies CreateForm<CreateApiKey>;

/** PUT with a partial body: omitted or null fields stay unchanged; a given list replaces the old one. */
export const UpdateApiKey = z.strictObject({
  label: z.string().min(1).max(255).nullish(),
  scopes: z.array(z.string()).min(1, "at least one scope is required").nullish(),
  ip_allow_list: z.array(z.string()).nullish(),
});
export type UpdateApiKey = z.infer<typeof UpdateApiKey>;

/** The endpoints of a collection of API keys (the account's, or a sub account's). */
const keyEndpoints = <B extends string>(base: B) => ({
  list: read(base, ListOf(ApiKey)),
  create: create(base, CreateApiKey, ApiKeyWithSecret),
  get: read(`${base}/{key_id}`, ApiKey),
  update: update(`${base}/{key_id}`, UpdateApiKey, ApiKey),
  delete: remove(`${base}/{key_id}`),
});
const apiKeys = keyEndpoints(`${A}/api-keys`);
const subAccountApiKeys = keyEndpoints(`${A}/sub-accounts/{sub_account_id}/api-keys`);

export const apiKeyEndpoints = {
  listApiKeys: apiKeys.list,
  createApiKey: apiKeys.create,
  getApiKey: apiKeys.get,
  updateApiKey: apiKeys.update,
  deleteApiKey: apiKeys.delete,

  listSubAccountApiKeys: subAccountApiKeys.list,
  createSubAccountApiKey: subAccountApiKeys.create,
  getSubAccountApiKey: subAccountApiKeys.get,
  updateSubAccountApiKey: subAccountApiKeys.update,
  deleteSubAccountApiKey: subAccountApiKeys.delete,
} as const;

/** An API key of the account. */
export const ApiKeyKind = defineKind({ order: 10, key: true });
/** An API key of a sub account, managed with the parent's credentials. */
export const SubAccountApiKeyKind = defineKind({ order: 30, key: true });
