// API keys that authenticate as a sub account, managed with the parent's credentials (a sub
// account's own key cannot manage them). Same lifecycle as account keys.
import { z } from "zod";
import { ApiKey, ApiKeyWithSecret, CreateApiKeyForm, paths, Uuid } from "../api";
import type { Declaration } from "../core/declaration";
import { pairImportId } from "../core/importId";
import { AllowList, KeyLabel, Rotation, Scopes, keyOutputs } from "./fields";

const inputs = z.object({
  subAccountId: Uuid.describe("The sub account the key authenticates as. Changing it replaces the key."),
  label: KeyLabel,
  scopes: Scopes,
  ipAllowList: AllowList,
  rotation: Rotation,
  /** Keep removed scopes until the next update (see prepareUpdate); provider-local, never sent. */
  deferScopeRemoval: z
    .boolean()
    .optional()
    .describe(
      "Keep scopes removed from `scopes` on the key until its next update. For a key other objects of the program " +
        "are managed with (a Tenant's bootstrap key): Pulumi updates the key before them and deletes removed " +
        "objects last, so a removed route is deleted while the key can still delete it; the following `pulumi up` " +
        "narrows the key.",
    ),
});

export const subAccountApiKey = {
  kind: "SubAccountApiKey",
  title: (p) => p.label,
  description:
    "An API key that authenticates as a sub account, created with the parent's credentials (the sub account's " +
    "own keys cannot manage these). Use its `secretKey` as the tenant's bootstrap key.",
  sdk: {
    outputs: ["secretKey", "publicKey", "createdAt", "lastUsedAt"],
  },
  inputs,
  apiFields: ["label", "scopes", "ipAllowList"],
  createForm: CreateApiKeyForm,
  replaceOn: ["subAccountId", "rotation"],
  renewsSecrets: "rotation",
  rotating: { input: "rotation", secret: "secretKey" } as const,
  createOnly: {
    /** The key itself (a Pulumi secret). Empty for an adopted key: its secret cannot be retrieved. */
    secretKey: "secret_key",
  },
  // The key lives under its sub account's path: `pulumi import … <subAccountId>/<keyId>`.
  importId: pairImportId({
    syntax: "<subAccountId>/<keyId>",
    field: "subAccountId",
    fieldOf: (r) => r.account_id,
    idOf: (r) => r.id,
    firstProblem: (sub) => (Uuid.safeParse(sub).success ? undefined : `'${sub}' is not a sub account id`),
  }),
  listing: { listed: true, subAccountInput: "subAccountId" },
  record: ApiKey,
  created: ApiKeyWithSecret,
  collectionPath: (c, p) => paths.subAccountApiKeys(c.accountId, String(p.subAccountId)),
  itemPath: (c, p, id) => paths.subAccountApiKey(c.accountId, String(p.subAccountId), id),
  scopes: {
    read: () => ["sub-account-api-keys:read"],
    write: () => ["sub-account-api-keys:write"],
    delete: () => ["sub-account-api-keys:delete"],
  },
  /**
   * With `deferScopeRemoval` (a Tenant's bootstrap key): scopes the program removes stay on the key
   * until its next update. The engine updates the key before the objects managed with it and deletes
   * removed objects last, so narrowing at once would leave a removed route undeletable (403) and a
   * route moving to another domain unwritable. State keeps the key's real scopes and which of them
   * are retiring, so the next `pulumi up` sees the difference and drops them (an in-place PUT).
   */
  prepareUpdate(olds, news, body) {
    if (news.deferScopeRemoval !== true || !Array.isArray(body.scopes)) return { body, state: {} };
    const asked = body.scopes as string[];
    const had = Array.isArray(olds.scopes) ? (olds.scopes as string[]) : [];
    const retiredBefore = new Set(Array.isArray(olds.retiringScopes) ? (olds.retiringScopes as string[]) : []);
    const retiring = had.filter((s) => !asked.includes(s) && !retiredBefore.has(s));
    const scopes = [...new Set([...asked, ...retiring])].sort();
    const { scopes: _unsent, ...rest } = body;
    // The service refuses an update that changes nothing: send scopes only when they differ.
    const changed = scopes.length !== had.length || scopes.some((s) => !had.includes(s));
    return {
      body: changed ? { ...rest, scopes } : rest,
      state: { scopes, retiringScopes: retiring.length > 0 ? retiring : undefined },
    };
  },
  // The record's account_id is the sub account; keep the input name for it.
  outputsOf: (r) => ({ ...keyOutputs(r), subAccountId: r.account_id }),
} satisfies Declaration<z.infer<typeof inputs>>;
