// The endpoints of the inbound-mail Route resource. A route's domain (for `routes:*:{domain}`
// scopes) is the domain of its `recipient` address (`user@d` or `*@d`); a route with recipient ""
// is tied to no domain and needs the `:all` scopes. The list takes `domain` (required with a
// domain-scoped read key).
import { CreateRoute, CreateRouteForm, Hostname, type Route, UpdateRoute } from "../../provider/api";
import { grant, requireDomains } from "../authz";
import type { Ctx, EmulatedEndpoints } from "../context";
import { uuid } from "../crypto";
import { badRequest, forbidden } from "../http/errors";
import { PAGE_QUERY, listPage } from "../pagination";
import { parseBody } from "../validate";
import { DELETED, type SignedData, created, domainOf, newSigned, ok, ownedObject, signedRecord } from "./common";

/** What this file stores (routes): a row's type and its section of the state dump (emulator/store/objects.ts). */
export const STORED = { route: "routes" } as const;

export interface RouteData extends Route, SignedData {}

export const routeRecord = (r: RouteData): Route => signedRecord(r);

const routeDomains = (recipient: string): string[] => {
  const d = domainOf(recipient);
  return d ? [d] : [];
};

function checkRecipient(recipient: string): string {
  if (recipient === "") return recipient;
  const at = recipient.lastIndexOf("@");
  const local = recipient.slice(0, at);
  const domain = recipient.slice(at + 1);
  if (at <= 0 || /[\s@]/.test(local) || !Hostname.safeParse(domain).success) {
    throw badRequest(
      "recipient: must be empty (no filter), an address (user@example.com) or a pattern (*@example.com)",
    );
  }
  return recipient;
}

/** A create's defaults, declared with its schema (provider/api/createForm.ts): the provider fills in the same. */
const defaults = CreateRouteForm.defaults;

const target = (ctx: Ctx): RouteData => ownedObject(ctx, "route", "route_id", "route");

function create(ctx: Ctx) {
  const b = parseBody(CreateRoute, ctx.json());
  const recipient = checkRecipient(b.recipient);
  requireDomains(ctx.key, "routes", "write", routeDomains(recipient), "every");
  const now = ctx.iso();
  const { secret, fields } = newSigned(ctx);
  const r: RouteData = {
    object: "route",
    id: uuid(),
    created_at: now,
    updated_at: now,
    name: b.name,
    url: b.url,
    recipient,
    attachments: b.attachments ?? defaults.attachments,
    headers: b.headers ?? defaults.headers,
    group_by_message_id: b.group_by_message_id ?? defaults.group_by_message_id,
    strip_replies: b.strip_replies ?? defaults.strip_replies,
    enabled: b.enabled ?? defaults.enabled,
    ...fields,
  };
  ctx.svc.objects.insert("route", r.id, ctx.account.id, r);
  return created({ ...routeRecord(r), secret });
}

function list(ctx: Ctx) {
  const q = ctx.query.get("domain");
  const g = grant(ctx.key, "routes", "read");
  if (q !== null && !Hostname.safeParse(q).success)
    throw badRequest("domain: must be a domain name such as example.com");
  const domain = q?.toLowerCase() ?? null;
  if (!g.all) {
    if (domain === null) throw badRequest("domain: required with a domain-scoped routes:read:{domain} key");
    if (!g.domains.has(domain)) throw forbidden(`missing scope: routes:read:all or routes:read:${domain} is required`);
  }
  const filter =
    domain === null
      ? undefined
      : { sig: `domain=${domain}`, keep: (r: { data: RouteData }) => domainOf(r.data.recipient) === domain };
  return ok(
    listPage<RouteData, Route>(ctx.svc.objects, "route", ctx.account.id, ctx.query, (r) => routeRecord(r.data), filter),
  );
}

function get(ctx: Ctx) {
  const r = target(ctx);
  requireDomains(ctx.key, "routes", "read", routeDomains(r.recipient), "any");
  return ok(routeRecord(r));
}

function update(ctx: Ctx) {
  const r = target(ctx);
  const b = parseBody(UpdateRoute, ctx.json());
  requireDomains(ctx.key, "routes", "write", routeDomains(r.recipient), "any");
  const next: RouteData = { ...r };
  if (b.recipient != null && b.recipient !== r.recipient) {
    next.recipient = checkRecipient(b.recipient);
    requireDomains(ctx.key, "routes", "write", routeDomains(next.recipient), "every");
  }
  for (const f of [
    "name",
    "url",
    "attachments",
    "headers",
    "group_by_message_id",
    "strip_replies",
    "enabled",
  ] as const) {
    if (b[f] != null) (next as unknown as Record<string, unknown>)[f] = b[f];
  }
  next.updated_at = ctx.iso();
  ctx.svc.objects.update(r.id, next);
  return ok(routeRecord(next));
}

function remove(ctx: Ctx) {
  const r = target(ctx);
  requireDomains(ctx.key, "routes", "delete", routeDomains(r.recipient), "any");
  ctx.svc.objects.delete(r.id);
  return ok({ message: DELETED });
}

export const routes: EmulatedEndpoints = {
  listRoutes: { scope: { family: "routes", verb: "read" }, query: [...PAGE_QUERY, "domain"], handler: list },
  createRoute: { scope: { family: "routes", verb: "write" }, idempotent: "plain", handler: create },
  getRoute: { scope: { family: "routes", verb: "read" }, handler: get },
  updateRoute: { scope: { family: "routes", verb: "write" }, handler: update },
  deleteRoute: { scope: { family: "routes", verb: "delete" }, handler: remove },
};
