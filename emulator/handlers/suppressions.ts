// Suppressions (docs/contract/endpoints/suppressions.md): list, create, delete (by email,
// optionally domain), delete all (optionally per domain). Record: object "suppression", id,
// created_at, email, domain (null = every domain), reason (nullable), expires_at. A create answers
// 201 with a list envelope of what it created.
//
// Expiry: a suppression whose expires_at has passed no longer exists as far as the API is
// concerned: lists leave it out, a delete of it is a 404, and a new create for the same address and
// domain replaces it (only a live one makes the create a 409).
import { CreateSuppression, Hostname, type Suppression, Timestamp } from "../../provider/api";
import type { Ctx, EmulatedEndpoints } from "../context";
import { uuid } from "../crypto";
import { badRequest, conflict, notFound } from "../http/errors";
import { PAGE_QUERY, listPage } from "../pagination";
import type { Objects, Row } from "../store/objects";
import { parseBody } from "../validate";
import { DELETED, created, ok } from "./common";

/** What this file stores (suppressions): a row's type and its section of the state dump (emulator/store/objects.ts). */
export const STORED = { suppression: "suppressions" } as const;

export interface SuppressionData extends Suppression {
  account_id: string;
}

const record = (s: SuppressionData): Suppression => {
  const { account_id: _a, ...rest } = s;
  return rest;
};
const uniqueName = (email: string, domain: string | null) => `${email}|${domain ?? ""}`;
const live = (s: SuppressionData, now: number) => Date.parse(s.expires_at) > now;

/** The live suppression of this address and domain; an expired one is deleted on the way. */
function find(objects: Objects, ctx: Ctx, email: string, domain: string | null): Row<SuppressionData> | undefined {
  const row = objects.byName<SuppressionData>("suppression", ctx.account.id, uniqueName(email, domain));
  if (row && !live(row.data, ctx.now)) {
    objects.delete(row.id);
    return undefined;
  }
  return row;
}

function optDomain(q: string | null): string | null {
  if (q === null) return null;
  if (!Hostname.safeParse(q).success) throw badRequest("domain: must be a domain name such as example.com");
  return q.toLowerCase();
}

function create(ctx: Ctx) {
  const b = parseBody(CreateSuppression, ctx.json());
  const email = b.email.toLowerCase();
  const domain = b.domain ? b.domain.toLowerCase() : null;
  if (find(ctx.svc.objects, ctx, email, domain)) throw conflict("suppression already exists");
  const s: SuppressionData = {
    object: "suppression",
    id: uuid(),
    created_at: ctx.iso(),
    email,
    domain,
    reason: b.reason ?? null,
    expires_at: b.expires_at,
    account_id: ctx.account.id,
  };
  ctx.svc.objects.insert("suppression", s.id, ctx.account.id, s, uniqueName(email, domain));
  return created({ object: "list", data: [record(s)] });
}

function list(ctx: Ctx) {
  const domain = optDomain(ctx.query.get("domain"));
  const email = ctx.query.get("email")?.toLowerCase() ?? null;
  const times = ["from_time", "to_time"].map((k) => {
    const v = ctx.query.get(k);
    if (v !== null && !Timestamp.safeParse(v).success) throw badRequest(`${k}: must be an RFC 3339 timestamp`);
    return v === null ? null : Date.parse(v);
  });
  const [from, to] = times as [number | null, number | null];
  const sig = `d=${domain}&e=${email}&f=${from}&t=${to}`;
  const keep = (r: { data: SuppressionData }) => {
    const s = r.data;
    const at = Date.parse(s.created_at);
    return (
      live(s, ctx.now) &&
      (domain === null || s.domain === domain) &&
      (email === null || s.email === email) &&
      (from === null || at >= from) &&
      (to === null || at <= to)
    );
  };
  return ok(
    listPage<SuppressionData, Suppression>(
      ctx.svc.objects,
      "suppression",
      ctx.account.id,
      ctx.query,
      (r) => record(r.data),
      { sig, keep },
    ),
  );
}

function remove(ctx: Ctx) {
  const email = ctx.query.get("email");
  if (!email) throw badRequest("email: required (the suppressed address to delete)");
  const domain = optDomain(ctx.query.get("domain"));
  const row = find(ctx.svc.objects, ctx, email.toLowerCase(), domain);
  if (!row) throw notFound("suppression not found");
  ctx.svc.objects.delete(row.id);
  return ok({ message: DELETED });
}

function wipe(ctx: Ctx) {
  const domain = optDomain(ctx.query.get("domain"));
  for (const r of ctx.svc.objects.all<SuppressionData>("suppression", ctx.account.id)) {
    if (domain === null || r.data.domain === domain) ctx.svc.objects.delete(r.id);
  }
  return ok({ message: DELETED });
}

export const suppressions: EmulatedEndpoints = {
  listSuppressions: {
    scope: { fixed: "suppressions:read" },
    query: [...PAGE_QUERY, "domain", "email", "from_time", "to_time"],
    handler: list,
  },
  createSuppressions: { scope: { fixed: "suppressions:write" }, idempotent: "plain", handler: create },
  deleteSuppression: { scope: { fixed: "suppressions:delete" }, query: ["email", "domain"], handler: remove },
  deleteAllSuppressions: { scope: { fixed: "suppressions:wipe" }, query: ["domain"], handler: wipe },
};
