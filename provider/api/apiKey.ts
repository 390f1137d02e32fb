// API keys of an account, and of a sub account (same record, managed by the parent).
import { z } from "zod";
import { Timestamp, Uuid } from "./common";

/**
 * The seed shows `scopes` as strings; the public service has been seen returning objects with a
 * `scope` string. Accept both and normalise to strings so nothing downstream sees the difference.
 */
const ScopeEntry = z.union([z.string(), z.object({ scope: z.string() }).transform((s) => s.scope)]);

export const ApiKey = z.object({
  object: z.literal("api_key"),
  id: Uuid,
  created_at: Timestamp,
  updated_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  account_id: Uuid,
  label: z.string(),
  public_key: z.string(),
  scopes: z.array(ScopeEntry),
  ip_allow_list: z.array(z.string()),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** 201 of key creation (and its idempotent replay within 5 minutes): the only place `secret_key` appears. */
export const ApiKeyWithSecret = ApiKey.extend({ secret_key: z.string() });
export type ApiKeyWithSecret = z.infer<typeof ApiKeyWithSecret>;

export const CreateApiKey = z.strictObject({
  label: z.string().min(1).max(255),
  scopes: z.array(z.string()).min(1, "at least one scope is required"),
  ip_allow_list: z.array(z.string()).optional(),
});
export type CreateApiKey = z.infer<typeof CreateApiKey>;

/** PUT with a partial body: omitted or null fields stay unchanged; a given list replaces the old one. */
export const UpdateApiKey = z.strictObject({
  label: z.string().min(1).max(255).nullish(),
  scopes: z.array(z.string()).min(1, "at least one scope is required").nullish(),
  ip_allow_list: z.array(z.string()).nullish(),
});
export type UpdateApiKey = z.infer<typeof UpdateApiKey>;
