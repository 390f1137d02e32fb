// Data functions: read-only look-ups usable in programs (they run in the program process, at
// preview and at update). Credentials come from `connection`, else the `txmail:*` config, else the
// TXMAIL_* environment, as for resources. Results carry no secrets and are not marked secret.
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { ApiKey, Domain, PUBLIC_BASE_URL, Route, SubAccountUsage, Webhook, paths } from "../provider/api";
import { createClient, type TxmailClient } from "../provider/client";
import { keysToCamel } from "../provider/core/casing";
import type { ConnectionArgs } from "./internal/common";

export interface LookupArgs {
  connection?: pulumi.Input<ConnectionArgs>;
}

interface Resolved {
  client: TxmailClient;
  accountId: string;
}

/** Runs `fn` once the credentials are known; the result is plain (not secret) data. */
function withClient<T>(args: LookupArgs | undefined, fn: (c: Resolved) => Promise<T>): pulumi.Output<T> {
  const cfg = new pulumi.Config("txmail");
  const result = pulumi
    .all([
      pulumi.output(args?.connection ?? {}),
      cfg.getSecret("apiKey") ?? pulumi.secret(process.env.TXMAIL_API_KEY ?? ""),
      cfg.get("accountId") ?? process.env.TXMAIL_ACCOUNT_ID ?? "",
      cfg.get("baseUrl") ?? process.env.TXMAIL_BASE_URL ?? PUBLIC_BASE_URL,
    ])
    .apply(async ([conn, apiKey, accountId, baseUrl]) => {
      const key = conn.apiKey ?? apiKey;
      const account = conn.accountId ?? accountId;
      if (!key || !account)
        throw new Error("txmail: set txmail:apiKey and txmail:accountId (or pass connection) to use look-ups");
      const client = createClient({ apiKey: key, accountId: account, baseUrl: conn.baseUrl ?? baseUrl });
      return fn({ client, accountId: account });
    });
  // The API key made the whole computation secret; what it returns is not.
  return pulumi.unsecret(result) as pulumi.Output<T>;
}

async function findOne<S extends z.ZodType>(
  c: Resolved,
  path: string,
  schema: S,
  match: (item: z.output<S>) => boolean,
  what: string,
): Promise<Record<string, unknown>> {
  for await (const item of c.client.list(path, schema)) {
    if (match(item)) return keysToCamel(item as object);
  }
  throw new Error(`txmail: no ${what} in account ${c.accountId}`);
}

/** Usage and allocated cost of the parent and each sub account in the current billing period. */
export function getSubAccountUsage(args?: LookupArgs): pulumi.Output<Record<string, unknown>> {
  return withClient(args, async (c) =>
    keysToCamel(await c.client.get(paths.subAccountUsage(c.accountId), SubAccountUsage)),
  );
}

/** An existing domain by name. */
export function lookupDomain(args: LookupArgs & { domain: string }): pulumi.Output<Record<string, unknown>> {
  return withClient(args, async (c) => keysToCamel(await c.client.get(paths.domain(c.accountId, args.domain), Domain)));
}

/** An existing route by id or by name (the first with that name). */
export function lookupRoute(
  args: LookupArgs & ({ id: string } | { name: string }),
): pulumi.Output<Record<string, unknown>> {
  return withClient(args, async (c) =>
    "id" in args
      ? keysToCamel(await c.client.get(paths.route(c.accountId, args.id), Route))
      : findOne(c, paths.routes(c.accountId), Route, (r) => r.name === args.name, `route named '${args.name}'`),
  );
}

/** An existing webhook by id or by name (the first with that name). */
export function lookupWebhook(
  args: LookupArgs & ({ id: string } | { name: string }),
): pulumi.Output<Record<string, unknown>> {
  return withClient(args, async (c) =>
    "id" in args
      ? keysToCamel(await c.client.get(paths.webhook(c.accountId, args.id), Webhook))
      : findOne(c, paths.webhooks(c.accountId), Webhook, (w) => w.name === args.name, `webhook named '${args.name}'`),
  );
}

/** An existing API key (without its secret, which the service never returns again) by id or label. */
export function lookupApiKey(
  args: LookupArgs & ({ id: string } | { label: string }),
): pulumi.Output<Record<string, unknown>> {
  return withClient(args, async (c) =>
    "id" in args
      ? keysToCamel(await c.client.get(paths.apiKey(c.accountId, args.id), ApiKey))
      : findOne(
          c,
          paths.apiKeys(c.accountId),
          ApiKey,
          (k) => k.label === args.label,
          `API key labelled '${args.label}'`,
        ),
  );
}
