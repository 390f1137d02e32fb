// The data functions' operations, one each, called by both faces: the SDK's functions
// (sdk/nodejs/functions.ts, in the program process) and the native plugin's Invoke (native/invoke.ts).
// Each is the service's record fetched by id, or found in its list, camelCased as the functions
// return it. The functions are declared for the schema in native/schema/functions.ts.
import type { z } from "zod";
import { ApiKey, Domain, Route, SubAccountUsage, Webhook, paths } from "../api";
import type { Api } from "./api";
import { keysToCamel } from "./casing";

/** Where a look-up reads: a client of the account, and the account. */
export interface LookupTarget {
  api: Pick<Api, "get" | "list">;
  accountId: string;
}

type Found = Record<string, unknown>;

/** An argument a look-up cannot work with: which one, and the rule it breaks. */
export class LookupArgError extends Error {
  constructor(
    readonly property: string,
    readonly reason: string,
  ) {
    super(`txmail: ${property}: ${reason}`);
  }
}

/** The one of `id` and `field` given (a non-empty string), or a LookupArgError naming both. */
function idOr<F extends string>(args: { id?: string } & Partial<Record<F, string>>, field: F) {
  const given = (v: unknown): v is string => typeof v === "string" && v !== "";
  const id = args.id;
  const other = args[field] as unknown;
  if (given(id) && given(other))
    throw new LookupArgError("id", `give exactly one of \`id\` and \`${field}\`, not both`);
  if (given(id)) return { id } as const;
  if (given(other)) return { [field]: other } as { [K in F]: string };
  throw new LookupArgError("id", `give exactly one of \`id\` and \`${field}\``);
}

async function findOne<T extends object>(
  t: LookupTarget,
  path: string,
  schema: z.ZodType<T, unknown>,
  match: (item: T) => boolean,
  what: string,
): Promise<Found> {
  for await (const item of t.api.list(path, schema)) {
    if (match(item)) return keysToCamel(item);
  }
  throw new Error(`txmail: no ${what} in account ${t.accountId}`);
}

const get = async (t: LookupTarget, path: string, schema: z.ZodType<object, unknown>) =>
  keysToCamel(await t.api.get(path, schema));

/** The look-ups by function name, as the schema's `txmail:index:<name>` functions. */
export const LOOKUPS = {
  /** Usage and allocated cost of the parent and each sub account in the current billing period. */
  getSubAccountUsage: (t: LookupTarget, _args: object = {}) =>
    get(t, paths.subAccountUsage(t.accountId), SubAccountUsage),

  /** An existing domain by name. */
  lookupDomain: (t: LookupTarget, args: { domain: string }) => {
    if (typeof args.domain !== "string" || args.domain === "")
      throw new LookupArgError("domain", "give the domain's name");
    return get(t, paths.domain(t.accountId, args.domain), Domain);
  },

  /** An existing route by id or by name (the first with that name). */
  lookupRoute: (t: LookupTarget, args: { id?: string; name?: string }) => {
    const by = idOr(args, "name");
    return "id" in by
      ? get(t, paths.route(t.accountId, by.id), Route)
      : findOne(t, paths.routes(t.accountId), Route, (r) => r.name === by.name, `route named '${by.name}'`);
  },

  /** An existing webhook by id or by name (the first with that name). */
  lookupWebhook: (t: LookupTarget, args: { id?: string; name?: string }) => {
    const by = idOr(args, "name");
    return "id" in by
      ? get(t, paths.webhook(t.accountId, by.id), Webhook)
      : findOne(t, paths.webhooks(t.accountId), Webhook, (w) => w.name === by.name, `webhook named '${by.name}'`);
  },

  /** An existing API key (without its secret, which the service never returns again) by id or label. */
  lookupApiKey: (t: LookupTarget, args: { id?: string; label?: string }) => {
    const by = idOr(args, "label");
    return "id" in by
      ? get(t, paths.apiKey(t.accountId, by.id), ApiKey)
      : findOne(t, paths.apiKeys(t.accountId), ApiKey, (k) => k.label === by.label, `API key labelled '${by.label}'`);
  },
} satisfies Record<string, (t: LookupTarget, args: never) => Promise<Found>>;

export type LookupName = keyof typeof LOOKUPS;

export const isLookupName = (name: string): name is LookupName => Object.hasOwn(LOOKUPS, name);
