// Data functions: read-only look-ups usable in programs (they run in the program process, at
// preview and at update). Credentials come from `connection`, else the `txmail:*` config, else the
// TXMAIL_* environment, as for resources. Results carry no secrets and are not marked secret.
//
// The HTTP client and the API schemas are loaded on first use: a program that only declares
// resources does not load undici and zod at startup.
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type * as ApiModule from "../provider/api";
import type * as ClientModule from "../provider/client";
import type { TxmailClient } from "../provider/client";
import type * as CasingModule from "../provider/core/casing";
import type { ConnectionArgs } from "./internal/common";

const api = () => require("../provider/api") as typeof ApiModule;
const keysToCamel = (o: object) => (require("../provider/core/casing") as typeof CasingModule).keysToCamel(o);

export interface LookupArgs {
  connection?: pulumi.Input<ConnectionArgs>;
}

interface Resolved {
  client: TxmailClient;
  accountId: string;
  /** The API's paths and record schemas. */
  api: typeof ApiModule;
}

/** Runs `fn` once the credentials are known; the result is plain (not secret) data. */
function withClient<T>(args: LookupArgs | undefined, fn: (c: Resolved) => Promise<T>): pulumi.Output<T> {
  const cfg = new pulumi.Config("txmail");
  const result = pulumi
    .all([
      pulumi.output(args?.connection ?? {}),
      cfg.getSecret("apiKey") ?? pulumi.secret(process.env.TXMAIL_API_KEY ?? ""),
      cfg.get("accountId") ?? process.env.TXMAIL_ACCOUNT_ID ?? "",
      cfg.get("baseUrl") ?? process.env.TXMAIL_BASE_URL ?? api().PUBLIC_BASE_URL,
    ])
    .apply(async ([conn, apiKey, accountId, baseUrl]) => {
      const key = conn.apiKey ?? apiKey;
      const account = conn.accountId ?? accountId;
      if (!key || !account)
        throw new Error("txmail: set txmail:apiKey and txmail:accountId (or pass connection) to use look-ups");
      const { createClient } = require("../provider/client") as typeof ClientModule;
      const client = createClient({ apiKey: key, accountId: account, baseUrl: conn.baseUrl ?? baseUrl });
      return fn({ client, accountId: account, api: api() });
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
    keysToCamel(await c.client.get(c.api.paths.subAccountUsage(c.accountId), c.api.SubAccountUsage)),
  );
}

/** An existing domain by name. */
export function lookupDomain(args: LookupArgs & { domain: string }): pulumi.Output<Record<string, unknown>> {
  return withClient(args, async (c) =>
    keysToCamel(await c.client.get(c.api.paths.domain(c.accountId, args.domain), c.api.Domain)),
  );
}

/** An existing route by id or by name (the first with that name). */
export function lookupRoute(
  args: LookupArgs & ({ id: string } | { name: string }),
): pulumi.Output<Record<string, unknown>> {
  return withClient(args, async (c) =>
    "id" in args
      ? keysToCamel(await c.client.get(c.api.paths.route(c.accountId, args.id), c.api.Route))
      : findOne(
          c,
          c.api.paths.routes(c.accountId),
          c.api.Route,
          (r) => r.name === args.name,
          `route named '${args.name}'`,
        ),
  );
}

/** An existing webhook by id or by name (the first with that name). */
export function lookupWebhook(
  args: LookupArgs & ({ id: string } | { name: string }),
): pulumi.Output<Record<string, unknown>> {
  return withClient(args, async (c) =>
    "id" in args
      ? keysToCamel(await c.client.get(c.api.paths.webhook(c.accountId, args.id), c.api.Webhook))
      : findOne(
          c,
          c.api.paths.webhooks(c.accountId),
          c.api.Webhook,
          (w) => w.name === args.name,
          `webhook named '${args.name}'`,
        ),
  );
}

/** An existing API key (without its secret, which the service never returns again) by id or label. */
export function lookupApiKey(
  args: LookupArgs & ({ id: string } | { label: string }),
): pulumi.Output<Record<string, unknown>> {
  return withClient(args, async (c) =>
    "id" in args
      ? keysToCamel(await c.client.get(c.api.paths.apiKey(c.accountId, args.id), c.api.ApiKey))
      : findOne(
          c,
          c.api.paths.apiKeys(c.accountId),
          c.api.ApiKey,
          (k) => k.label === args.label,
          `API key labelled '${args.label}'`,
        ),
  );
}
