// The paths a client calls, built from the endpoint table's templates (endpoints.ts), so the client,
// the providers and the emulator agree. A collection's and an object's paths are named after their
// list and get endpoints (`listRoutes` gives `paths.routes(accountId)`, `getRoute` gives
// `paths.route(accountId, routeId)`), their arguments the template's parameters in order; the
// paths of the other endpoints are below by hand.

import { ENDPOINTS as E, type EndpointName, fillTemplate, templateParams } from "./endpoints";

/** The public service; the provider's default when no base URL is configured. */
export const PUBLIC_BASE_URL = "https://api.ahasend.com";

/** A template's parameters, one string each: `/a/{x}/b/{y}` gives [string, string]. */
type ParamValues<T extends string> = T extends `${string}{${string}}${infer Rest}`
  ? [string, ...ParamValues<Rest>]
  : [];

/** The name of the path an endpoint reads: `listRoutes` → `routes`, `getRoute` → `route`. */
type ReadPathName<N extends string> = N extends `list${infer R}` | `get${infer R}` ? Uncapitalize<R> : never;

type ReadPaths = {
  [N in EndpointName as ReadPathName<N>]: (...params: ParamValues<(typeof E)[N]["template"]>) => string;
};

/** The path of `template` with `values` in its parameters' order. */
const filler =
  (template: string) =>
  (...values: string[]): string =>
    fillTemplate(template, Object.fromEntries(templateParams(template).map((name, i) => [name, values[i]!])));

const readPaths = Object.fromEntries(
  Object.entries(E).flatMap(([name, endpoint]) => {
    const read = /^(?:list|get)(.)(.*)$/.exec(name);
    return read ? [[read[1]!.toLowerCase() + read[2]!, filler(endpoint.template)]] : [];
  }),
) as ReadPaths;

export const paths = {
  ...readPaths,
  ping: () => fillTemplate(E.ping.template, {}),

  subAccountSuspend: (a: string, sub: string) =>
    fillTemplate(E.suspendSubAccount.template, { account_id: a, sub_account_id: sub }),
  subAccountUnsuspend: (a: string, sub: string) =>
    fillTemplate(E.unsuspendSubAccount.template, { account_id: a, sub_account_id: sub }),
  subAccountUsage: (a: string) => fillTemplate(E.subAccountUsage.template, { account_id: a }),

  domainCheckDns: (a: string, name: string) => fillTemplate(E.checkDomainDns.template, { account_id: a, domain: name }),

  suppressionsAll: (a: string) => fillTemplate(E.deleteAllSuppressions.template, { account_id: a }),
  /** Delete is addressed by the query, not a path segment: `?email=…[&domain=…]`. */
  suppressionByAddress: (a: string, email: string, domain?: string | null) =>
    `${fillTemplate(E.deleteSuppression.template, { account_id: a })}?${new URLSearchParams(domain ? { email, domain } : { email }).toString()}`,

  /** Members have no get endpoint: an object's path is its removal's. */
  member: (a: string, userId: string) => fillTemplate(E.removeMember.template, { account_id: a, user_id: userId }),

  messages: (a: string) => fillTemplate(E.sendMessage.template, { account_id: a }),
  conversationMessages: (a: string) => fillTemplate(E.sendConversationMessage.template, { account_id: a }),
} as const;
