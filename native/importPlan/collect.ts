// What a (sub) account holds that `pulumi import` can take under management, found through the
// service's list endpoints: one entry per object, with the id `pulumi import` takes for its kind
// (see importIds.ts) and the name a person knows it by. Families the key may not read are skipped
// with the scope that would let them be listed, so a narrow key still yields a useful plan.
import type { z } from "zod";
import {
  ApiKey,
  Domain,
  MemberList,
  Route,
  SmtpCredential,
  SubAccount,
  Suppression,
  Webhook,
  paths,
} from "../../provider/api";
import { errorKind } from "../../provider/core/api";
import { importIdOf } from "./importIds";

/** The part of the HTTP client the collector uses (the real client, or a fake in unit tests). */
export interface ObjectSource {
  list<S extends z.ZodType>(path: string, schema: S): AsyncIterable<z.output<S>>;
  get<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>>;
}

export interface Importable {
  /** The kind (last part of the type token). */
  kind: string;
  /** What `pulumi import` takes as the id of this kind. */
  importId: string;
  /** What a person calls the object; the plan derives the resource name from it. */
  title: string;
}

export interface Skipped {
  kind: string;
  reason: string;
}

export interface Collected {
  found: Importable[];
  skipped: Skipped[];
}

/** Every importable object of `accountId`, in a stable order (kind, then the service's listing order). */
export async function collectImportables(
  source: ObjectSource,
  accountId: string,
  now = Date.now(),
): Promise<Collected> {
  const found: Importable[] = [];
  const skipped: Skipped[] = [];
  const add = (kind: string, record: Record<string, unknown>, title: string) =>
    found.push({ kind, importId: importIdOf(kind, record), title });

  /** Runs one family's listing; a 403 (or a sub-account feature the account lacks) skips the family. */
  async function family(kind: string, scope: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (err) {
      const k = errorKind(err);
      if (k !== "forbidden" && k !== "not-found") throw err;
      skipped.push({
        kind,
        reason:
          k === "forbidden"
            ? `the API key may not list them (needs ${scope}, or its IP allow list excludes this machine)`
            : "the account has no such collection (sub accounts are a partner feature)",
      });
    }
  }

  const subAccounts: z.output<typeof SubAccount>[] = [];
  await family("SubAccount", "sub-accounts:read", async () => {
    for await (const s of source.list(paths.subAccounts(accountId), SubAccount)) {
      if (s.status === "deleted") continue;
      subAccounts.push(s);
      add("SubAccount", s, s.name);
    }
  });
  await family("SubAccountApiKey", "sub-account-api-keys:read", async () => {
    for (const s of subAccounts) {
      for await (const k of source.list(paths.subAccountApiKeys(accountId, s.id), ApiKey)) {
        add("SubAccountApiKey", { ...k, account_id: s.id }, `${s.name}-${k.label}`);
      }
    }
  });
  await family("ApiKey", "api-keys:read", async () => {
    for await (const k of source.list(paths.apiKeys(accountId), ApiKey)) add("ApiKey", k, k.label);
  });
  await family("Domain", "domains:read", async () => {
    for await (const d of source.list(paths.domains(accountId), Domain)) add("Domain", d, d.domain);
  });
  await family("Route", "routes:read:all", async () => {
    for await (const r of source.list(paths.routes(accountId), Route)) add("Route", r, r.name);
  });
  await family("Webhook", "webhooks:read:all", async () => {
    for await (const w of source.list(paths.webhooks(accountId), Webhook)) add("Webhook", w, w.name);
  });
  await family("SmtpCredential", "smtp-credentials:read:all", async () => {
    for await (const c of source.list(paths.smtpCredentials(accountId), SmtpCredential))
      add("SmtpCredential", c, c.name);
  });
  await family("Suppression", "suppressions:read", async () => {
    for await (const s of source.list(paths.suppressions(accountId), Suppression)) {
      // An expired suppression no longer exists for the service's senders, nor for the provider.
      if (Date.parse(s.expires_at) <= now) continue;
      add("Suppression", s, `suppression-${s.email}${s.domain ? `-${s.domain}` : ""}`);
    }
  });
  await family("AccountMember", "accounts:members:read", async () => {
    const { data } = await source.get(paths.members(accountId), MemberList);
    if (data.length > 0) {
      skipped.push({
        kind: "AccountMember",
        reason:
          `${data.length} member(s) not listed: the service's member record carries no email, which the resource ` +
          `needs; import one with its email in the id (\`pulumi import txmail:index:AccountMember <name> <email>/<userId>\`)`,
      });
    }
  });
  return { found, skipped };
}
