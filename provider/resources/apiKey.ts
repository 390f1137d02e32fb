// Account API keys. `secretKey` exists only in the creation response: it is kept from state on
// every later read. `rotation` is a schedule with an overlap (core/rotating: the resource then owns the
// current and the previous key), or the legacy trigger that replaces the key create-before-delete.
import { z } from "zod";
import { ApiKey, ApiKeyWithSecret, CreateApiKeyForm, paths } from "../api";
import type { Declaration } from "../core/declaration";
import { AllowList, KeyLabel, Rotation, Scopes, keyOutputs } from "./fields";

const inputs = z.object({ label: KeyLabel, scopes: Scopes, ipAllowList: AllowList, rotation: Rotation });

export const apiKey = {
  kind: "ApiKey",
  title: (p) => p.label,
  description:
    "An API key of the account. Its `secretKey` is returned once by the service and kept as a Pulumi secret.",
  sdk: {
    outputs: ["secretKey", "publicKey", "accountId", "createdAt", "lastUsedAt"],
  },
  inputs,
  apiFields: ["label", "scopes", "ipAllowList"],
  createForm: CreateApiKeyForm,
  replaceOn: ["rotation"],
  renewsSecrets: "rotation",
  rotating: { input: "rotation", secret: "secretKey" } as const,
  createOnly: {
    /** The key itself (a Pulumi secret). Empty for an adopted key: its secret cannot be retrieved. */
    secretKey: "secret_key",
  },
  listing: { listed: true },
  record: ApiKey,
  created: ApiKeyWithSecret,
  collectionPath: (c) => paths.apiKeys(c.accountId),
  itemPath: (c, _p, id) => paths.apiKey(c.accountId, id),
  scopes: { read: () => ["api-keys:read"], write: () => ["api-keys:write"], delete: () => ["api-keys:delete"] },
  outputsOf: keyOutputs,
} satisfies Declaration<z.infer<typeof inputs>>;
