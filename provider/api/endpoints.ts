// The service's endpoints, one entry each: method, path template, the request body's schema, the
// schema of a successful answer, and how a client may retry the call. The client builds its paths
// and decides retries from it, the emulator routes by it, the acceptance run reports by it, and the
// contract pages are checked against it (test/unit/docs/endpointPages.test.ts). It says what
// docs/contract/endpoints/ says; the emulator's /_emulator control surface is not a service
// endpoint and is not here. Each contract file declares its own endpoints (`<name>Endpoints`,
// built with endpoint.ts); the table is their union, generated (generated/contracts.ts).
import { CONTRACT_ENDPOINTS } from "./generated/contracts";
import type { EndpointSpec } from "./endpoint";

export type { EndpointSpec, HttpMethod, RetryClass } from "./endpoint";

/** Every endpoint of the v2 API, by name. */
export const ENDPOINTS = CONTRACT_ENDPOINTS satisfies Record<string, EndpointSpec>;

export type EndpointName = keyof typeof ENDPOINTS;

/** The endpoints as a list, in the table's order. */
export const ENDPOINT_LIST: readonly EndpointSpec[] = Object.values(ENDPOINTS);

/** `"METHOD /template"`, the way logs, counters and docs name an endpoint. */
export const endpointKey = (e: { method: string; template: string }): string => `${e.method} ${e.template}`;

/** The template's parameter names in order, e.g. ["account_id", "route_id"]. */
export function templateParams(template: string): string[] {
  return [...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
}

/**
 * The path of a template with its parameters filled in, each percent-encoded (ids are uuids, but
 * a domain name is user input).
 */
export function fillTemplate(template: string, params: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}

/** A regular expression that matches the paths of a template (no query), one segment per parameter. */
export function templatePattern(template: string): RegExp {
  const escaped = template
    .split(/\{[a-z_]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]+");
  return new RegExp(`^${escaped}$`);
}

/** Count of literal characters: `/sub-accounts/usage` is more specific than `/sub-accounts/{sub_account_id}`. */
const literalLength = (template: string) => template.replace(/\{[a-z_]+\}/g, "").length;

const BY_SPECIFICITY = ENDPOINT_LIST.map((e) => ({ e, re: templatePattern(e.template) })).sort(
  (a, b) => literalLength(b.e.template) - literalLength(a.e.template),
);

/** The endpoint a request is (path with or without its query and a trailing slash), or undefined. */
export function endpointOf(method: string, path: string): EndpointSpec | undefined {
  const bare = path.split("?")[0]!.replace(/(.)\/+$/, "$1");
  return BY_SPECIFICITY.find((p) => p.e.method === method && p.re.test(bare))?.e;
}
