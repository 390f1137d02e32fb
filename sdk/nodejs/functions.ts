// Data functions: read-only look-ups usable in programs (they run in the program process, at
// preview and at update). Credentials come from `connection`, else the `txmail:*` config, else the
// TXMAIL_* environment, as for resources. Results carry no secrets and are not marked secret.
//
// The operations are provider/core/lookups.ts, shared with the native plugin's Invoke. The HTTP
// client, the look-ups and the API schemas are loaded on first use: a program that only declares
// resources does not load undici and zod at startup.
import * as pulumi from "@pulumi/pulumi";
import type * as ApiModule from "../../provider/api";
import type * as ClientModule from "../../provider/client";
import type * as LookupsModule from "../../provider/core/lookups";
import type { LookupName, LookupTarget } from "../../provider/core/lookups";
import type { ConnectionArgs } from "./internal/common";

const api = () => require("../../provider/api") as typeof ApiModule;

export interface LookupArgs {
  connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * Runs the look-up `name` (provider/core/lookups.ts, which the native plugin's Invoke runs too)
 * once the credentials are known; the result is plain (not secret) data.
 */
function lookup(name: LookupName, args: LookupArgs | undefined): pulumi.Output<Record<string, unknown>> {
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
        throw new pulumi.RunError(
          "txmail: set txmail:apiKey and txmail:accountId (or pass connection) to use look-ups",
        );
      const { createClient } = require("../../provider/client") as typeof ClientModule;
      const { LOOKUPS } = require("../../provider/core/lookups") as typeof LookupsModule;
      const client = createClient({ apiKey: key, accountId: account, baseUrl: conn.baseUrl ?? baseUrl });
      const target: LookupTarget = {
        api: { get: (path, schema) => client.get(path, schema), list: (path, schema) => client.list(path, schema) },
        accountId: account,
      };
      const { connection: _, ...own } = args ?? {};
      return (LOOKUPS[name] as (t: LookupTarget, a: object) => Promise<Record<string, unknown>>)(target, own);
    });
  // The API key made the whole computation secret; what it returns is not.
  return pulumi.unsecret(result);
}

/** Usage and allocated cost of the parent and each sub account in the current billing period. */
export function getSubAccountUsage(args?: LookupArgs): pulumi.Output<Record<string, unknown>> {
  return lookup("getSubAccountUsage", args);
}

/** An existing domain by name. */
export function lookupDomain(args: LookupArgs & { domain: string }): pulumi.Output<Record<string, unknown>> {
  return lookup("lookupDomain", args);
}

/** An existing route by id or by name (the first with that name). */
export function lookupRoute(
  args: LookupArgs & ({ id: string } | { name: string }),
): pulumi.Output<Record<string, unknown>> {
  return lookup("lookupRoute", args);
}

/** An existing webhook by id or by name (the first with that name). */
export function lookupWebhook(
  args: LookupArgs & ({ id: string } | { name: string }),
): pulumi.Output<Record<string, unknown>> {
  return lookup("lookupWebhook", args);
}

/** An existing API key (without its secret, which the service never returns again) by id or label. */
export function lookupApiKey(
  args: LookupArgs & ({ id: string } | { label: string }),
): pulumi.Output<Record<string, unknown>> {
  return lookup("lookupApiKey", args);
}

// The same functions under the names Pulumi's Node SDKs give a function's Output form
// (`<name>Output`): what Pulumi's program generator writes (the TypeScript examples under
// docs/examples are generated). The functions above already return Outputs.
export const getSubAccountUsageOutput = getSubAccountUsage;
export const lookupDomainOutput = lookupDomain;
export const lookupRouteOutput = lookupRoute;
export const lookupWebhookOutput = lookupWebhook;
export const lookupApiKeyOutput = lookupApiKey;
