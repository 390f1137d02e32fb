// Event webhooks. `global` webhooks are tied to no domain (they need the `:all` scopes); `scoped`
// ones to their `domains`. Update rules (docs/contract/endpoints/webhooks.md#records): switching global → scoped needs a non-empty
// `domains` in the same request; switching to global clears the associations; `domains: []` clears
// them; a given `domains` replaces them. `domains` sent with `global` is ignored (as on create).
import {
  CreateWebhook,
  CreateWebhookForm,
  UpdateWebhook,
  WEBHOOK_EVENTS,
  type Webhook,
  storedDomains,
} from "../../provider/api";
import { grant, requireDomains, sees } from "../authz";
import type { Ctx, EmulatedEndpoints } from "../context";
import { uuid } from "../crypto";
import { badRequest } from "../http/errors";
import { PAGE_QUERY, listPage } from "../pagination";
import { parseBody } from "../validate";
import { DELETED, type SignedData, created, newSigned, ok, ownedObject, signedRecord } from "./common";

/** What this file stores (webhooks): a row's type and its section of the state dump (emulator/store/objects.ts). */
export const STORED = { webhook: "webhooks" } as const;

export interface WebhookData extends Webhook, SignedData {}

export const webhookRecord = (w: WebhookData): Webhook => signedRecord(w);

/** Domain lists as the service keeps them (declared with the create's form, provider/api/createForm.ts). */
export const normDomains = storedDomains;

/** A create's defaults, declared with its schema (provider/api/createForm.ts): the provider fills in the same. */
const defaults = CreateWebhookForm.defaults;

const target = (ctx: Ctx): WebhookData => ownedObject(ctx, "webhook", "webhook_id", "webhook");

function create(ctx: Ctx) {
  const b = parseBody(CreateWebhook, ctx.json());
  const domains = b.scope === "scoped" ? normDomains(b.domains) : [];
  requireDomains(ctx.key, "webhooks", "write", domains, "every");
  const now = ctx.iso();
  const { secret, fields } = newSigned(ctx);
  const w = {
    object: "webhook",
    id: uuid(),
    created_at: now,
    updated_at: now,
    name: b.name,
    url: b.url,
    enabled: b.enabled ?? defaults.enabled,
    ...Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e, b[e] ?? defaults[e]])),
    scope: b.scope,
    domains,
    ...fields,
  } as WebhookData;
  ctx.svc.objects.insert("webhook", w.id, ctx.account.id, w);
  return created({ ...webhookRecord(w), secret });
}

function list(ctx: Ctx) {
  const g = grant(ctx.key, "webhooks", "read");
  const filters: string[] = [];
  const preds: ((w: WebhookData) => boolean)[] = [];
  for (const f of ["enabled", ...WEBHOOK_EVENTS] as const) {
    const v = ctx.query.get(f);
    if (v === null) continue;
    if (v !== "true" && v !== "false") throw badRequest(`${f} must be true or false`);
    filters.push(`${f}=${v}`);
    preds.push((w) => w[f] === (v === "true"));
  }
  if (!g.all) {
    filters.push(`domains=${[...g.domains].sort().join(",")}`);
    preds.push((w) => sees(g, w.domains));
  }
  const filter = preds.length
    ? { sig: filters.join("&"), keep: (r: { data: WebhookData }) => preds.every((p) => p(r.data)) }
    : undefined;
  return ok(
    listPage<WebhookData, Webhook>(
      ctx.svc.objects,
      "webhook",
      ctx.account.id,
      ctx.query,
      (r) => webhookRecord(r.data),
      filter,
    ),
  );
}

function get(ctx: Ctx) {
  const w = target(ctx);
  requireDomains(ctx.key, "webhooks", "read", w.domains, "any");
  return ok(webhookRecord(w));
}

function update(ctx: Ctx) {
  const w = target(ctx);
  const b = parseBody(UpdateWebhook, ctx.json());
  requireDomains(ctx.key, "webhooks", "write", w.domains, "any");
  const next: WebhookData = { ...w };
  const scope = b.scope ?? w.scope;
  if (scope === "scoped") {
    if (w.scope === "global" && (!b.domains || b.domains.length === 0)) {
      throw badRequest("domains: must list at least one domain when switching scope from 'global' to 'scoped'");
    }
    if (b.domains != null) next.domains = normDomains(b.domains);
  } else {
    next.domains = [];
  }
  next.scope = scope;
  const added = next.domains.filter((d) => !w.domains.includes(d));
  if (scope === "global" && w.scope !== "global") requireDomains(ctx.key, "webhooks", "write", [], "every");
  else if (added.length) requireDomains(ctx.key, "webhooks", "write", added, "every");
  for (const f of ["name", "url", "enabled", ...WEBHOOK_EVENTS] as const) {
    if (b[f] != null) (next as unknown as Record<string, unknown>)[f] = b[f];
  }
  next.updated_at = ctx.iso();
  ctx.svc.objects.update(w.id, next);
  return ok(webhookRecord(next));
}

function remove(ctx: Ctx) {
  const w = target(ctx);
  requireDomains(ctx.key, "webhooks", "delete", w.domains, "any");
  ctx.svc.objects.delete(w.id);
  return ok({ message: DELETED });
}

export const webhooks: EmulatedEndpoints = {
  listWebhooks: {
    scope: { family: "webhooks", verb: "read" },
    query: [...PAGE_QUERY, "enabled", ...WEBHOOK_EVENTS],
    handler: list,
  },
  createWebhook: { scope: { family: "webhooks", verb: "write" }, idempotent: "plain", handler: create },
  getWebhook: { scope: { family: "webhooks", verb: "read" }, handler: get },
  updateWebhook: { scope: { family: "webhooks", verb: "write" }, handler: update },
  deleteWebhook: { scope: { family: "webhooks", verb: "delete" }, handler: remove },
};
