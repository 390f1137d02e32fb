// API keys that authenticate as a sub account, managed with the parent's credentials (a sub
// account's own key cannot manage them). Same lifecycle as account keys.
import { z } from "zod";
import { ApiKey, ApiKeyWithSecret, Uuid, paths } from "../api";
import type { ResourceSpec } from "../core/spec";
import { AllowList, KeyLabel, Rotation, Scopes, keyOutputs } from "./fields";

const inputs = z.object({
  subAccountId: Uuid,
  label: KeyLabel,
  scopes: Scopes,
  ipAllowList: AllowList,
  rotation: Rotation,
});

export const subAccountApiKey: ResourceSpec<z.infer<typeof inputs>> = {
  kind: "SubAccountApiKey",
  inputs,
  apiFields: ["label", "scopes", "ipAllowList"],
  replaceOn: ["subAccountId", "rotation"],
  createOnly: { secretKey: "secret_key" },
  record: ApiKey,
  created: ApiKeyWithSecret,
  collectionPath: (c, p) => paths.subAccountApiKeys(c.accountId, String(p.subAccountId)),
  itemPath: (c, p, id) => paths.subAccountApiKey(c.accountId, String(p.subAccountId), id),
  scopes: {
    read: () => ["sub-account-api-keys:read"],
    write: () => ["sub-account-api-keys:write"],
    delete: () => ["sub-account-api-keys:delete"],
  },
  // The record's account_id is the sub account; keep the input name for it.
  outputsOf: (r) => ({ ...keyOutputs(r), subAccountId: r.account_id }),
};
